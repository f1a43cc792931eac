// Two gateways on one Redis store, and clients that land their requests on either: the
// replica tests' shared setup.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '../start.js';

/**
 * Starts `count` gateways of one config on one shared store, each on a free loopback port
 * with `token`, and waits until every one is ready.
 */
export async function startReplicas(options: {
  config: GatewayConfig;
  store: string;
  token: string;
  count?: number;
}): Promise<StartedGateway[]> {
  const replicas: StartedGateway[] = [];
  for (let index = 0; index < (options.count ?? 2); index += 1) {
    replicas.push(
      await startGateway({
        config: options.config,
        store: options.store,
        http: { host: '127.0.0.1', port: 0, token: options.token },
      }),
    );
  }
  await Promise.all(replicas.map((replica) => replica.ready()));
  return replicas;
}

/** The gateway token of the replica tests. */
export const TOKEN = 'replica-token-0123456789abcdef';
/** A reader profile's token. */
export const READER_TOKEN = 'replica-reader-token-0123456789';
/** A writer profile's token. */
export const WRITER_TOKEN = 'replica-writer-token-0123456789';
/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client whose POSTs go where `route` says, by their body, with no standing GET
 * stream: a balancer without affinity that happens to split one session's calls.
 * Every answer to a question the client sends is kept in `answers`.
 */
export async function routedClient(
  token: string,
  route: (body: string) => string,
  elicit: (message: string, questionId: string | number) => Promise<string>,
) {
  const answers: string[] = [];
  const client = new Client(
    { name: 'replica-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => ({
    action: 'accept',
    content: { decision: await elicit(request.params.message, extra.requestId) },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(route('')), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (_input, init) => {
      if (init?.method === 'GET') return new Response(null, { status: 405 });
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"result"') && !body.includes('"method"')) answers.push(body);
      return fetch(route(body), init);
    },
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, transport, call, answers };
}

/** Posts a raw JSON-RPC message on a session, as a client would. */
export async function postRaw(url: string, token: string, sessionId: string, message: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(message),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * A client whose every request goes to the next replica in turn: round robin with no
 * stickiness, as a load balancer without session affinity does.
 */
export async function roundRobinClient(urls: string[], answers: string[]) {
  let turn = 0;
  const seen: string[] = [];
  const client = new Client(
    { name: 'replica-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => {
    const decision = answers.shift() ?? 'deny';
    return { action: 'accept', content: { decision } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(urls[0]!), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: async (_input, init) => {
      // No standing GET stream: every exchange is a POST that may land anywhere.
      if (init?.method === 'GET') return new Response(null, { status: 405 });
      const target = urls[turn % urls.length]!;
      turn += 1;
      seen.push(target);
      return fetch(target, init);
    },
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, transport, call, seen };
}
