import type { IncomingMessage } from 'node:http';
import type { HttpStep } from './http-chain.js';
import type { HttpMount, HttpMountContext } from './http-mount.js';
import { reply } from './http-reply.js';

/**
 * Whether a request comes from the mount's own pages: no `Origin` (a navigation, or not a
 * browser), or the origin of the `Host` it was sent to (which the host step checked). A
 * mount answers no other origin: it sends no CORS headers.
 */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const host = req.headers.host ?? '';
  return origin === `http://${host}` || origin === `https://${host}`;
}

/**
 * The steps of a listener's mounts: a request under a mount's prefix passes the host
 * check (against DNS rebinding) and must come from the mount's own origin (403
 * otherwise), then goes to the mount, which answers it.
 *
 * @param mounts - the listener's mounts
 * @param hostCheck - the listener's host step
 * @param context - what the mounts are told of the listener
 * @returns one step per mount
 * @throws nothing
 */
export function mountSteps(
  mounts: readonly HttpMount[],
  hostCheck: HttpStep,
  context: HttpMountContext,
): HttpStep[] {
  return mounts.map((mount) => {
    const step = mount.step(context);
    return async (request) => {
      const path = request.url.pathname;
      if (path !== mount.prefix && !path.startsWith(`${mount.prefix}/`)) return false;
      if (await hostCheck(request)) return true;
      if (!sameOrigin(request.req)) {
        reply(request.res, 403, `Forbidden: origin ${request.req.headers.origin} is not allowed`);
        return true;
      }
      await step(request);
      return true;
    };
  });
}
