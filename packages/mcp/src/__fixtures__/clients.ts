import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatewayServer } from '../gateway/server.js';

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

/** How a test client presents itself: a token as it would over HTTP, or a profile. */
export interface ClientOptions {
  /** A token of the config: a profile's token opens a session of that profile. */
  token?: string;
  /** The session's profile (instead of a token). */
  profile?: string;
  /** Answers elicitation requests (the client then declares the capability). */
  elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** Ignored in process (an HTTP client's GET stream). */
  listen?: boolean;
}

/** A new SDK client, answering elicitations when `elicit` is given. */
export function createTestClient(options: Pick<ClientOptions, 'elicit'> = {}): Client {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    { capabilities: options.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params));
  }
  return client;
}

/**
 * The profile and principal a token stands for, as the HTTP front maps them: a profile's
 * token is `profile:<name>`, any other token the gateway's own (`default`).
 */
function principalOf(
  gateway: GatewayServer,
  options: ClientOptions,
): { profile?: string; principal?: string } {
  if (options.profile !== undefined) return { profile: options.profile };
  if (options.token === undefined) return {};
  for (const [name, profile] of Object.entries(gateway.profiles)) {
    if (profile.token === options.token) return { profile: name, principal: `profile:${name}` };
  }
  return { principal: 'default' };
}

/**
 * Opens a session of a gateway on a linked in-memory transport pair and gives the
 * client's side (not started), for a client of the test's own making.
 */
export async function openInProcess(
  gateway: GatewayServer,
  options: Pick<ClientOptions, 'token' | 'profile'> = {},
): Promise<InMemoryTransport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // As over a socket, each message the gateway sends arrives in a turn of its own, in
  // order: the SDK handles a notification a microtask after it reads it, so a response
  // delivered in the same turn would overtake the progress sent before it.
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, sendOptions) =>
    new Promise((resolve, reject) =>
      setImmediate(() => send(message, sendOptions).then(resolve, reject)),
    );
  const session = gateway.openSession(principalOf(gateway, options));
  await session.server.connect(serverSide);
  return clientSide;
}

/**
 * Connects an SDK client to a gateway in process (a linked in-memory transport pair):
 * the session's profile and principal come from `token` as over HTTP.
 */
export async function connectClient(
  gateway: GatewayServer,
  options: ClientOptions = {},
): Promise<TestClient> {
  const clientSide = await openInProcess(gateway, options);
  const client = createTestClient(options);
  const wrapped = wrapClient(client);
  await client.connect(clientSide);
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
