// The parity property through the gateway's 2026-07-28 leg: a v2 client pinned to the
// stateless revision, the gateway in front of a real upstream over stdio. A call through
// tool_call, a batch, the deferred tool's own name or a program meets the policy of the
// same call made directly, with approvals by an adapter on one replica, and with the
// person asked by input_required on two replicas sharing Redis, every request landing on
// the next replica (the question on one, the retry with the answer on the other).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import { startRedis, type TestRedis } from '@tool-search/services';
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
  upstreamArguments,
  upstreamConfig,
  worldArbitrary,
} from './gateway-world.js';
import { direct } from './library-surfaces.js';
import {
  callArbitrary,
  createRecorder,
  type ParityCall,
  type ParityWorld,
  policyOf,
} from './model.js';

async function connectModern(urls: string[], elicit?: (message: string) => Promise<string>) {
  let turn = 0;
  const client = new Client(
    { name: 'parity-modern', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (request) => ({
      action: 'accept',
      content: { decision: await elicit(String(request.params.message)) },
    }));
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(urls[0]!), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: async (_input, init) => {
        const target = urls[turn % urls.length]!;
        turn += 1;
        return fetch(target, init);
      },
    }),
  );
  return client;
}

// The modern leg's bridge tools also take a working-set handle, which the gateway takes
// off before the hooks pipeline: with it, a call meets the same policy on the same
// final arguments.
type ModernRoute = Route | 'tool_call+working_set' | 'batch+working_set';
const HANDLE_ROUTES: ModernRoute[] = ['tool_call+working_set', 'batch+working_set'];

function modernCall(route: ModernRoute, call: ParityCall, handle: string) {
  if (!route.endsWith('+working_set')) return modelCall(route as Route, call);
  const base = modelCall(route.replace('+working_set', '') as Route, call);
  return { ...base, arguments: { ...base.arguments, working_set: handle } };
}

/** A handle from a search, as a model would hold it. */
async function workingSetOf(client: Client): Promise<string> {
  const found = (await client.callTool({
    name: 'tool_search',
    arguments: { query: TOOLS[0]!.definition.name },
  })) as CallToolResult;
  const handle = (found.structuredContent as { working_set?: unknown } | undefined)?.working_set;
  if (typeof handle !== 'string') throw new Error('the search answered no working_set');
  return handle;
}

const scenario = worldArbitrary.chain((world) =>
  fc.record({
    world: fc.constant(world),
    call: callArbitrary(world),
    route: fc.constantFrom<ModernRoute>(
      'tool_call',
      'batch',
      'direct-name',
      'program',
      ...HANDLE_ROUTES,
    ),
  }),
);

describe('parity: the modern leg on one replica', () => {
  let gateway: StartedGateway;
  let client: Client;
  const live: Live = {
    world: { tools: TOOLS, policies: [] },
    recorder: createRecorder(),
    settled: [],
  };

  beforeAll(async () => {
    const policy = livePolicy(live);
    gateway = await startGateway({
      config: upstreamConfig({ otherwise: 'ask' }),
      http: { host: '127.0.0.1', port: 0, token: TOKEN },
      guardrails: [policy.guardrail as never],
      approval: policy.approval as never,
      hooks: [policy.hook as never],
    });
    await gateway.ready();
    client = await connectModern([gateway.url!]);
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('meets the policy of a direct call, on the same final arguments, through every route', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const handle = await workingSetOf(client);
    await fc.assert(
      fc.asyncProperty(scenario, async ({ world, call, route }) => {
        Object.assign(live, { world, recorder: createRecorder(), settled: [] });
        const result = (await client.callTool(modernCall(route, call, handle))) as CallToolResult;
        expect(liveOutcome(result, live)).toEqual(await direct(world, call));
      }),
      { numRuns: 40 },
    );
  });
});

describe('parity: the modern leg on two replicas sharing Redis, asking by input_required', () => {
  let redis: TestRedis;
  const replicas: StartedGateway[] = [];
  let client: Client;
  let world: ParityWorld = { tools: TOOLS, policies: [] };
  const shown: { name: string; arguments: Record<string, unknown> }[] = [];
  const answered = { 'allow-once': 0, deny: 0 };

  beforeAll(async () => {
    redis = await startRedis();
    const config = upstreamConfig({ otherwise: 'ask', fallback: 'deny' });
    const guardrail = {
      name: 'deny-list',
      check: (call: { name: string; arguments: Record<string, unknown> }, ctx: never) =>
        policyOf(world, createRecorder()).guardrail.check(call, ctx),
    };
    for (let index = 0; index < 2; index += 1) {
      replicas.push(
        await startGateway({
          config,
          store: redis.url,
          http: { host: '127.0.0.1', port: 0, token: TOKEN },
          guardrails: [guardrail as never],
        }),
      );
    }
    await Promise.all(replicas.map((replica) => replica.ready()));
    // The person decides from what the question shows, by the same policy as the adapter.
    client = await connectModern(
      replicas.map((replica) => replica.url!),
      async (message) => {
        const tool = TOOLS.find((entry) => message.includes(entry.definition.name));
        const question = shownArguments(message) ?? {};
        if (!tool) return 'deny';
        shown.push({ name: tool.definition.name, arguments: question });
        const decision = await policyOf(world, createRecorder()).approval.request({
          call: { name: tool.definition.name, arguments: question },
          signal: new AbortController().signal,
        });
        answered[decision as keyof typeof answered] += 1;
        return decision as string;
      },
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
  });

  it('runs what a direct call runs, the person shown exactly those arguments', async () => {
    // A program is not asked by input_required (its retry would run its other calls
    // again): its approvals go the fallback's way, which the first property covers.
    const asked = worldArbitrary.chain((chosen) =>
      fc.record({
        world: fc.constant(chosen),
        call: callArbitrary(chosen),
        route: fc.constantFrom<ModernRoute>('tool_call', 'batch', 'direct-name', ...HANDLE_ROUTES),
      }),
    );
    // Asked on one replica, the retry on the other: the handle is read on either.
    const handle = await workingSetOf(client);
    await fc.assert(
      fc.asyncProperty(asked, async (sample) => {
        world = sample.world;
        shown.length = 0;
        const result = (await client.callTool(
          modernCall(sample.route, sample.call, handle),
        )) as CallToolResult;
        const expected = await direct(world, sample.call);
        const ran = upstreamArguments(result);
        expect(ran === undefined ? 'denied' : 'ran').toBe(expected.status);
        if (ran !== undefined) expect(ran).toEqual(expected.ran);
        if (expected.asked !== undefined && expected.by !== 'guardrail:deny-list') {
          expect(shown.map((entry) => entry.arguments)).toContainEqual(expected.asked);
        }
      }),
      { numRuns: 20 },
    );
    expect(answered['allow-once']).toBeGreaterThan(0);
    expect(answered.deny).toBeGreaterThan(0);
  }, 170_000);
});
