// The parity property for calls whose upstream asks its caller to confirm before it runs
// (a stdio server of either era): a 2025 client is asked on the call's stream, a
// 2026-07-28 client by input_required (a 2025 server's call held live meanwhile; a 2026
// server's state carried inside the gateway's). Either way the call meets the policy of
// the same call made directly, on the same final arguments.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Live,
  liveOutcome,
  livePolicy,
  modelCall,
  type Route,
  shownArguments,
  TOKEN,
  TOOLS,
  upstreamConfig,
  worldArbitrary,
} from './gateway-world.js';
import { direct } from './library-surfaces.js';
import { callArbitrary, createRecorder, type ParityWorld, policyOf } from './model.js';

/** The world the person's answers follow (the same policy as the adapter's). */
let current: ParityWorld = { tools: TOOLS, policies: [] };

/**
 * A client's answer to a question: the upstream's confirmation is given; the gateway's
 * approval question is decided by the same policy as the adapter, from the arguments it
 * shows (a 2026 client that declares elicitation is asked by input_required).
 */
async function answer(
  message: string,
  asked: string[],
): Promise<{ action: 'accept'; content: Record<string, string | boolean> }> {
  if (message.startsWith('Confirm ')) {
    asked.push(message);
    return { action: 'accept', content: { ok: true } };
  }
  const tool = TOOLS.find((entry) => message.includes(entry.definition.name));
  const decision = tool
    ? await policyOf(current, createRecorder()).approval.request({
        call: { name: tool.definition.name, arguments: shownArguments(message) ?? {} },
        signal: new AbortController().signal,
      })
    : 'deny';
  return { action: 'accept', content: { decision: decision as string } };
}

async function connectLegacy(url: string, asked: string[]) {
  const client = new Client(
    { name: 'parity-relay-2025', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message, asked));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

async function connectModern(url: string, asked: string[]) {
  const client = new ModernClient(
    { name: 'parity-relay-2026', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} } },
    },
  );
  client.setRequestHandler('elicitation/create', (request) =>
    answer(String(request.params.message), asked),
  );
  await client.connect(
    new ModernTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

// Batches and programs: a 2026 client is not asked for them (their retry would run their
// other calls again), so parity is over single calls.
const scenario = worldArbitrary.chain((world) =>
  fc.record({
    world: fc.constant(world),
    call: callArbitrary(world),
    route: fc.constantFrom<Route>('tool_call', 'direct-name'),
  }),
);

// The upstream of either era: a 2025 server asks by a request during the call; a
// 2026-07-28 server by answering the call with input_required.
describe.each([
  { upstream: '2025 (a request mid-call)', asks: true as const },
  { upstream: '2026-07-28 (input_required)', asks: 'modern' as const },
])('parity: an upstream of era $upstream that asks, through both eras of client', ({ asks }) => {
  let gateway: StartedGateway;
  let legacy: Client;
  let modern: ModernClient;
  const askedLegacy: string[] = [];
  const askedModern: string[] = [];
  const live: Live = {
    world: { tools: TOOLS, policies: [] },
    recorder: createRecorder(),
    settled: [],
  };

  beforeAll(async () => {
    const policy = livePolicy(live);
    gateway = await startGateway({
      config: upstreamConfig({ otherwise: 'ask' }, { asks }),
      http: { host: '127.0.0.1', port: 0, token: TOKEN },
      guardrails: [policy.guardrail as never],
      approval: policy.approval as never,
      hooks: [policy.hook as never],
    });
    await gateway.ready();
    legacy = await connectLegacy(gateway.url!, askedLegacy);
    modern = await connectModern(gateway.url!, askedModern);
  }, 60_000);

  afterAll(async () => {
    await legacy?.close();
    await modern?.close();
    await gateway?.close();
  });

  it('meets the policy of a direct call, on the same final arguments, in either era', async () => {
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await fc.assert(
      fc.asyncProperty(scenario, async ({ world, call, route }) => {
        const expected = await direct(world, call);
        for (const [client, asked] of [
          [legacy, askedLegacy],
          [modern, askedModern],
        ] as const) {
          Object.assign(live, { world, recorder: createRecorder(), settled: [] });
          current = world;
          const before = asked.length;
          const result = (await client.callTool(modelCall(route, call))) as CallToolResult;
          // Who decided may differ (the adapter, or the person by the same policy); what ran may not.
          const outcome = liveOutcome(result, live);
          expect({ status: outcome.status, ran: outcome.ran }).toEqual({
            status: expected.status,
            ran: expected.ran,
          });
          // The upstream asked exactly when the call ran, and its question reached the client.
          const name = TOOLS[call.tool]!.definition.name;
          expect(asked.slice(before)).toEqual(
            expected.status === 'ran' ? [`Confirm ${name}?`] : [],
          );
        }
      }),
      { numRuns: 25 },
    );
    expect(askedModern.length).toBeGreaterThan(0);
  }, 170_000);
});
