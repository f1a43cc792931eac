/** The 2026-07-28 revision's version, as a request names it. */
export const MODERN = '2026-07-28';

type Json = Record<string, unknown>;

/**
 * One 2026-07-28 request, raw on the wire (headers and `_meta` envelope as a v2 client
 * sends them, with elicitation declared), to the gateway at `url`; the answer read from
 * JSON or from the first `data:` line of an event stream.
 *
 * @param url - the gateway's `/mcp`
 * @param token - the bearer token
 * @param method - the request's method
 * @param params - its params (a `name` also goes in `Mcp-Name`)
 * @param id - the JSON-RPC id
 * @returns the JSON-RPC answer
 */
export async function postModern(
  url: string,
  token: string,
  method: string,
  params: Json,
  id: number,
): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6) ?? '{}');
  return JSON.parse(data) as Json;
}
