import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../__fixtures__/clients.js';
import { hostileInProcess } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createGatewayServer, type GatewayServer } from '../gateway/server.js';
import { DEFAULT_UPSTREAM_LIMITS } from './limits.js';
import { createUpstreamPool, type UpstreamPool } from './pool.js';

const TOKEN = 'untrusted-token-0123456789abcdef';
const MAX = DEFAULT_UPSTREAM_LIMITS.maxDescriptionChars;

interface Running {
  pool: UpstreamPool;
  gateway: GatewayServer;
  client: TestClient;
  close(): Promise<void>;
}

/** A real pool and gateway over HTTP, with a real SDK client. */
async function run(raw: Record<string, unknown>): Promise<Running> {
  const config = parseGatewayConfig(raw);
  const pool = createUpstreamPool(config, { reconnect: false });
  await pool.start();
  const gateway = createGatewayServer({ pool, config, contextWindow: 200_000 });
  const client = await connectClient(gateway, { token: TOKEN });
  return {
    pool,
    gateway,
    client,
    async close() {
      await client.close();
      await gateway.close();
      await pool.close();
    },
  };
}

describe('an untrusted upstream', () => {
  let running: Running;

  beforeAll(async () => {
    running = await run({
      mcpServers: { hostile: hostileInProcess(['pin', 'huge']) },
      toolSearch: { enabled: 'on' },
    });
  }, 30_000);
  afterAll(() => running?.close());

  it('cannot pin itself into every tools/list: its 1 MB self-pin stays deferred', async () => {
    const listed = await running.client.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).not.toContain('hostile_pinned');
    expect(JSON.stringify(listed).length).toBeLessThan(20_000);
    const status = running.pool.status()[0]!;
    expect(status.ignoredPins).toEqual(['hostile_pinned']);
  });

  it('shows the model at most the documented description size, with the cut marked, in tool_describe', async () => {
    const described = await running.client.bridge('tool_describe', { name: 'hostile_pinned' });
    const description = String(described['description']);
    expect(description.length).toBeLessThanOrEqual(MAX);
    expect(description).toMatch(/^Always load me\. A+/);
    expect(description).toMatch(/\[… [\d,]+ more characters cut by the gateway\]$/);
    const status = running.pool.status()[0]!;
    expect(status.cutTools).toEqual([
      expect.objectContaining({ name: 'hostile_pinned', field: 'description' }),
    ]);
  });

  it('shows at most 400 characters of a description in search hits', async () => {
    const found = await running.client.bridge('tool_search', { query: 'always load me' });
    const matches = found['matches'] as { name: string; description: string }[];
    const hit = matches.find((match) => match.name === 'hostile_pinned');
    expect(hit).toBeDefined();
    expect(hit!.description.length).toBeLessThanOrEqual(400);
  });

  it('refuses the huge and the deep schema and names them in status', async () => {
    const names = running.pool.tools().map((tool) => tool.name);
    expect(names).not.toContain('hostile_huge_schema');
    expect(names).not.toContain('hostile_deep_schema');
    expect(names).toContain('hostile_echo');
    const rejected = running.pool.status()[0]!.rejectedTools;
    expect(rejected).toEqual(
      expect.arrayContaining([
        {
          name: 'hostile_huge_schema',
          error: expect.stringMatching(/hostile_huge_schema.*input schema.*bytes.*limit/),
        },
        {
          name: 'hostile_deep_schema',
          error: expect.stringMatching(/hostile_deep_schema.*nested.*deeper than/),
        },
      ]),
    );
    const found = await running.client.bridge('tool_describe', { name: 'hostile_huge_schema' });
    expect(found['error']).toBeDefined();
  });
});

describe('a trusted upstream', () => {
  let running: Running;

  beforeAll(async () => {
    running = await run({
      mcpServers: { hostile: { ...hostileInProcess(['pin']), trusted: true } },
      toolSearch: { enabled: 'on' },
    });
  }, 30_000);
  afterAll(() => running?.close());

  it('may pin its own tool, but the model still sees a capped description', async () => {
    const listed = await running.client.client.listTools();
    const pinned = listed.tools.find((tool) => tool.name === 'hostile_pinned');
    expect(pinned).toBeDefined();
    expect(pinned!.description!.length).toBeLessThanOrEqual(MAX);
    expect(pinned!.description).toMatch(/more characters cut by the gateway\]$/);
    expect(JSON.stringify(listed).length).toBeLessThan(MAX + 10_000);
    expect(running.pool.status()[0]!.ignoredPins).toEqual([]);
  });
});

describe('limits in the config', () => {
  let running: Running;

  beforeAll(async () => {
    running = await run({
      mcpServers: {
        hostile: hostileInProcess(['huge', 'pin'], {
          HOSTILE_SCHEMA_BYTES: '20000',
          HOSTILE_DESCRIPTION_BYTES: '5000',
        }),
      },
      toolSearch: { enabled: 'on' },
      limits: { max_schema_bytes: 100_000, max_schema_depth: 1_000, max_description_chars: 300 },
    });
  }, 30_000);
  afterAll(() => running?.close());

  it('are honoured: larger schemas pass, descriptions are cut shorter', async () => {
    const names = running.pool.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['hostile_huge_schema', 'hostile_deep_schema']));
    const pinned = running.pool.tools().find((tool) => tool.name === 'hostile_pinned');
    expect(pinned!.description!.length).toBeLessThanOrEqual(300);
    expect(pinned!.description).toMatch(/more characters cut by the gateway\]$/);
  });
});

describe('a gateway over a tool source of another kind', () => {
  it('caps descriptions itself in tools/list', async () => {
    const long = { name: 'long_tool', description: 'L'.repeat(50_000), inputSchema: {} };
    const source = {
      tools: () => [{ ...long, source: 'mcp' as const, alwaysLoad: true }],
      callTool: async () => ({ content: [] }),
      onToolsChanged: () => () => {},
    };
    const gateway = createGatewayServer({
      pool: source,
      config: { limits: { ...DEFAULT_UPSTREAM_LIMITS, maxDescriptionChars: 1_000 } },
    });
    const client = await connectClient(gateway, { token: TOKEN });
    try {
      const listed = await client.client.listTools();
      const tool = listed.tools.find((entry) => entry.name === 'long_tool');
      expect(tool!.description!.length).toBeLessThanOrEqual(1_000);
      expect(tool!.description).toMatch(/more characters cut by the gateway\]$/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
