import type { HttpStep } from './http-chain.js';

/** `Access-Control-Allow-Headers`: what an MCP client sends on the endpoint. */
const CORS_ALLOW_HEADERS =
  'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';

/** The `Mcp-Param-*` headers a preflight asks for (a 2026-07-28 tool's mirrored arguments). */
function requestedParamHeaders(requested: string | undefined): string {
  const names = (requested ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => /^mcp-param-[a-z0-9-]{1,100}$/.test(name));
  return names.length === 0 ? '' : `, ${[...new Set(names)].slice(0, 32).join(', ')}`;
}

/**
 * The preflight step: answers `OPTIONS` (204, with the CORS headers when an origin
 * asks). A CORS preflight carries no credentials, so this comes before authentication;
 * the origin step has already refused a foreign origin.
 *
 * @returns the step
 * @throws nothing
 */
export function preflightStep(): HttpStep {
  return ({ req, res }) => {
    if (req.method !== 'OPTIONS') return false;
    res.writeHead(204, {
      allow: 'GET, POST, DELETE, OPTIONS',
      ...(req.headers.origin === undefined
        ? {}
        : {
            'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
            'access-control-allow-headers':
              CORS_ALLOW_HEADERS +
              requestedParamHeaders(req.headers['access-control-request-headers']),
            'access-control-max-age': '600',
          }),
    });
    res.end();
    return true;
  };
}
