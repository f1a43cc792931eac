import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** An SDK client with a counter of `tools/list_changed` notifications. */
export interface TestClient {
  client: Client;
  transport: StreamableHTTPClientTransport | undefined;
  listChanged: () => number;
  names: () => Promise<string[]>;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  /** Calls a bridge tool and parses its JSON answer. */
  bridge: (name: string, args?: Record<string, unknown>) => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Wraps a connected client with the helpers tests use. */
export function wrapClient(client: Client, transport?: StreamableHTTPClientTransport): TestClient {
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changes += 1;
  });
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    transport,
    listChanged: () => changes,
    names: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call,
    bridge: async (name, args = {}) => JSON.parse(textOf(await call(name, args))),
    close: () => client.close(),
  };
}

/**
 * Connects an SDK client to a gateway over Streamable HTTP. With `listen: false` the
 * client never keeps an SSE stream (`GET`) open: it is told the server offers none
 * (405), as the spec allows, so the session is idle between its requests.
 */
export async function connectHttpClient(
  url: string,
  options: {
    token?: string;
    elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
    listen?: boolean;
  } = {},
): Promise<TestClient> {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    { capabilities: options.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params));
  }
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

/** Polls until `probe` gives a value (for notifications that arrive asynchronously). */
export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
