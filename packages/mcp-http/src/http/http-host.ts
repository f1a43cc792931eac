import type { HttpStep } from './http-chain.js';
import { reply } from './http-reply.js';
import { isLoopbackHost } from './http-validation.js';

/**
 * The host step, against DNS rebinding: a page on a name that resolves here may not
 * read the endpoint, nor how this replica, its store and its upstreams are. With
 * `allowedHosts` only those `Host` headers pass; on a loopback bind, a loopback name
 * with the listener's port passes too. Otherwise every host passes.
 *
 * @param options.allowedHosts - the configured `Host` values
 * @param options.loopback - whether the listener is bound to a loopback address
 * @param options.port - the listening port (known once it listens)
 * @returns the step
 * @throws nothing
 */
export function hostStep(options: {
  allowedHosts: readonly string[] | undefined;
  loopback: boolean;
  port: () => number;
}): HttpStep {
  return ({ req, res }) => {
    if (options.allowedHosts === undefined && !options.loopback) return false;
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    const hostName = hostHeader.replace(/:\d+$/, '');
    const allowed =
      options.allowedHosts?.includes(hostHeader) === true ||
      (options.loopback && isLoopbackHost(hostName) && hostHeader.endsWith(`:${options.port()}`));
    if (allowed) return false;
    reply(res, 403, `Forbidden: host ${hostHeader || '(none)'} is not allowed`);
    return true;
  };
}
