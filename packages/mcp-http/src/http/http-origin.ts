import type { HttpStep } from './http-chain.js';
import { reply } from './http-reply.js';

/**
 * The origin step: a browser request from an origin that is neither allowed nor the
 * gateway's own is refused (403, without CORS headers, so the browser keeps the answer
 * from the foreign page); an allowed one gets the CORS headers on every answer.
 *
 * @param options.allowedOrigins - the configured origins
 * @param options.ownOrigins - the gateway's own origins (they depend on the port)
 * @returns the step
 * @throws nothing
 */
export function originStep(options: {
  allowedOrigins: ReadonlySet<string>;
  ownOrigins: () => ReadonlySet<string>;
}): HttpStep {
  return ({ req, res }) => {
    const origin = req.headers.origin;
    if (origin === undefined) return false;
    if (!options.allowedOrigins.has(origin) && !options.ownOrigins().has(origin)) {
      reply(res, 403, `Forbidden: origin ${origin} is not allowed`);
      return true;
    }
    // Every answer to an allowed origin, errors included, is readable by its page.
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
    return false;
  };
}
