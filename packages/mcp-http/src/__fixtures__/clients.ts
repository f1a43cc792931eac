import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type ClientOptions,
  createTestClient,
  type TestClient,
  wrapClient,
} from '../../../mcp/src/__fixtures__/clients.js';

export {
  type ClientOptions,
  connectClient,
  createTestClient,
  type TestClient,
  textOf,
  until,
  wrapClient,
} from '../../../mcp/src/__fixtures__/clients.js';

/**
 * Connects an SDK client to a gateway over Streamable HTTP. With `listen: false` the
 * client never keeps an SSE stream (`GET`) open: it is told the server offers none
 * (405), as the spec allows, so the session is idle between its requests.
 */
export async function connectHttpClient(
  url: string,
  options: Omit<ClientOptions, 'profile'> = {},
): Promise<TestClient> {
  const client = createTestClient(options);
  const headers: Record<string, string> = options.token
    ? { Authorization: `Bearer ${options.token}` }
    : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(options.listen === false
      ? {
          fetch: async (input: string | URL, init?: RequestInit) =>
            init?.method === 'GET' ? new Response(null, { status: 405 }) : fetch(input, init),
        }
      : {}),
  });
  const wrapped = wrapClient(client, transport);
  await client.connect(transport);
  return wrapped;
}
