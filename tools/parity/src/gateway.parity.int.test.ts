// The parity property through the real gateway: an MCP SDK client over Streamable HTTP, the
// gateway in front of a real upstream over stdio. A call through tool_call, a batch, the
// deferred tool's own name, a tool_program program served by the gateway or an operator's
// Try in the gateway console meets the
// policy of the same call made directly, on one replica
// (approvals by an adapter) and on two replicas sharing Redis with a client that lands every
// request on the next replica (approvals asked of the person through MCP elicitation, two
// calls waiting at once, each answer decided from what its own question shows).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import { startRedis, type TestRedis } from '@tool-search/services';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  barrier,
  consoleOperator,
  type Live,
  liveOutcome,
  livePolicy,
  modelCall,
  type Route,
  shownArguments,
  sleep,
  TOKEN,
  TOOLS,
  upstreamArguments,
  upstreamConfig,
  worldArbitrary,
} from './gateway-world.js';
import { direct } from './library-surfaces.js';
import { callArbitrary, createRecorder, type ParityWorld, policyOf } from './model.js';

async function connect(urls: string[], elicit?: (message: string) => Promise<string>) {
  let turn = 0;
  const client = new Client(
    { name: 'parity', version: '1.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: 'accept',
      content: { decision: await elicit(request.params.message) },
    }));
  }
  const transport = new StreamableHTTPClientTransport(new URL(urls[0]!), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: async (_input, init) => {
      // No standing GET stream, no affinity: every request lands on the next replica.
      if (init?.method === 'GET') return new Response(null, { status: 405 });
      // Answers to the gateway's questions all land on the first replica, whichever asked.
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"result"') && !body.includes('"method"')) return fetch(urls[0]!, init);
      const target = urls[turn % urls.length]!;
      turn += 1;
      return fetch(target, init);
    },
  });
  await client.connect(transport);
  return client;
}

const scenario = worldArbitrary.chain((world) =>
  fc.record({
    world: fc.constant(world),
    call: callArbitrary(world),
    route: fc.constantFrom<Route>('tool_call', 'batch', 'direct-name', 'program', 'console'),
  }),
);

describe('parity: the gateway on one replica', () => {
  let gateway: StartedGateway;
  let client: Client;
  let tryInConsole: Awaited<ReturnType<typeof consoleOperator>>;
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
      console: {},
    });
    await gateway.ready();
    client = await connect([gateway.url!]);
    tryInConsole = await consoleOperator(gateway.url!);
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('meets the policy of a direct call, on the same final arguments, through every route', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ world, call, route }) => {
        Object.assign(live, { world, recorder: createRecorder(), settled: [] });
        // The console's Try runs the tool's own name and arguments, as an operator gives them.
        const result =
          route === 'console'
            ? await tryInConsole(modelCall('direct-name', call))
            : ((await client.callTool(modelCall(route, call))) as CallToolResult);
        expect(liveOutcome(result, live)).toEqual(await direct(world, call));
      }),
      { numRuns: 40 },
    );
  });
});

describe('parity: the gateway on two replicas sharing Redis, asking the person', () => {
  let redis: TestRedis;
  const replicas: StartedGateway[] = [];
  let client: Client;
  let world: ParityWorld = { tools: TOOLS, policies: [] };
  const asked: { name: string; arguments: Record<string, unknown> }[] = [];
  const answered = { 'allow-once': 0, deny: 0 };
  let secondAsked = barrier();

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
    client = await connect(
      replicas.map((replica) => replica.url!),
      async (message) => {
        const tool = TOOLS.find(
          (entry) =>
            message.includes(`'${entry.definition.name}'`) ||
            message.includes(entry.definition.name),
        );
        const shown = shownArguments(message) ?? {};
        if (!tool) return 'deny';
        asked.push({ name: tool.definition.name, arguments: shown });
        const recorder = createRecorder();
        const decision = await policyOf(world, recorder).approval.request({
          call: { name: tool.definition.name, arguments: shown },
          signal: new AbortController().signal,
        });
        // Both questions of a pair are out before either is answered (when both calls
        // need one), and the later one is answered first: an answer that reached the
        // wrong question would show as the wrong outcome.
        const mine = asked.length;
        if (mine === 1) await Promise.race([secondAsked, sleep(1_500)]);
        else secondAsked.resolve();
        if (mine === 1) await sleep(100);
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

  it('gives two calls waiting at once the outcomes direct calls would have, each on its own answer', async () => {
    const pair = worldArbitrary.chain((chosen) =>
      fc.record({
        world: fc.constant(chosen),
        first: callArbitrary(chosen),
        second: callArbitrary(chosen),
        route: fc.constantFrom<Route>('tool_call', 'batch', 'direct-name', 'program'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(pair, async (sample) => {
        world = sample.world;
        asked.length = 0;
        secondAsked = barrier();
        const calls = [sample.first, sample.second];
        const results = (await Promise.all(
          calls.map((call) => client.callTool(modelCall(sample.route, call))),
        )) as CallToolResult[];
        for (const [index, call] of calls.entries()) {
          const expected = await direct(world, call);
          const ran = upstreamArguments(results[index]!);
          expect(ran === undefined ? 'denied' : 'ran').toBe(expected.status);
          if (ran !== undefined) expect(ran).toEqual(expected.ran);
          if (expected.asked !== undefined && expected.by !== 'guardrail:deny-list') {
            // The person was shown exactly the arguments that run (or would have run).
            const name = TOOLS[call.tool]!.definition.name;
            expect(
              asked.filter((entry) => entry.name === name).map((entry) => entry.arguments),
            ).toContainEqual(expected.asked);
          }
        }
      }),
      { numRuns: 15 },
    );
    // The runs asked the person, and the answers went both ways.
    expect(answered['allow-once']).toBeGreaterThan(0);
    expect(answered.deny).toBeGreaterThan(0);
  }, 170_000);
});
