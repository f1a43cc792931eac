import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { everythingInProcess } from '../__fixtures__/in-process.js';
import { tempWorkspace } from '../__fixtures__/servers.js';
import { memoryInProcess } from '../__fixtures__/worker-server.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayActivity, type GatewayServer } from './server.js';

const TOKEN = 'batch-token-0123456789abcdef';

// Real upstreams behind the gateway, the bridge in OpenAI strict mode, a guardrail,
// schema checks, and a description for one server's toolset.
describe('the gateway bridge: batches, select: and strict definitions', () => {
  const workspace = tempWorkspace();
  const activity: GatewayActivity[] = [];
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: {
        everything: everythingInProcess(),
        memory: memoryInProcess(join(workspace.directory, 'memory.jsonl')),
      },
      toolSearch: { enabled: 'on' },
      toolsets: [
        { name: 'mcp-memory', description: 'A knowledge graph of entities and relations.' },
      ],
      guardrails: { deny: ['delete_entities'], validateArguments: true },
    });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({
      pool,
      config,
      strictBridge: true,
      onActivity: (entry) => activity.push(entry),
    });
    client = await connectClient(gateway, { token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
    workspace.cleanup();
  });

  it('lists strict bridge definitions and names the searchable toolsets in tool_search', async () => {
    const { tools } = await client.client.listTools();
    const search = tools.find((tool) => tool.name === 'tool_search')!;
    const call = tools.find((tool) => tool.name === 'tool_call')!;
    expect(call.inputSchema).toMatchObject({
      additionalProperties: false,
      required: ['name', 'arguments', 'calls'],
      properties: { arguments: { type: ['string', 'null'] } },
    });
    expect(search.description).toMatch(
      /\n- mcp-everything \(\d+ tools\)\n- mcp-memory \(\d+ tools\): A knowledge graph of entities and relations\./,
    );
  });

  it('runs a batch of calls in order, each through the guardrails on its own, and answers each', async () => {
    const before = activity.length;
    const result = await client.call('tool_call', {
      name: null,
      arguments: null,
      calls: [
        { name: 'get-sum', arguments: JSON.stringify({ a: 2, b: 3 }) },
        { name: 'delete_entities', arguments: JSON.stringify({ entityNames: ['Ada'] }) },
        { name: 'no_such_tool', arguments: '{}' },
        { name: 'get-sum', arguments: JSON.stringify({ a: 'two', b: 3 }) },
        {
          name: 'create_entities',
          arguments: JSON.stringify({
            entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote a batch'] }],
          }),
        },
        { name: 'read_graph', arguments: '{}' },
      ],
    });
    expect(result.isError).toBeFalsy();
    const blocks = result.content.map((block) => (block.type === 'text' ? block.text : ''));
    const headers = blocks.filter((text) => /^Call \d of 6/.test(text));
    expect(headers).toEqual([
      'Call 1 of 6 (get-sum): ok',
      'Call 2 of 6 (delete_entities): error',
      'Call 3 of 6 (no_such_tool): error',
      'Call 4 of 6 (get-sum): error',
      'Call 5 of 6 (create_entities): ok',
      'Call 6 of 6 (read_graph): ok',
    ]);
    // Each call keeps the code a single call's error result would carry.
    expect(result._meta?.['tool-search/batch']).toMatchObject([
      { name: 'get-sum', status: 'ok' },
      { name: 'delete_entities', status: 'error', code: 'denied' },
      { name: 'no_such_tool', status: 'error' },
      { name: 'get-sum', status: 'error' },
      { name: 'create_entities', status: 'ok' },
      { name: 'read_graph', status: 'ok' },
    ]);
    const text = textOf(result);
    expect(text).toContain("Denied by guardrail 'tool-policy'");
    expect(text).toContain("'no_such_tool' is not available in this session");
    expect(text).toContain("'get-sum' was not invoked: its arguments do not match its schema");
    // The calls ran in order: the graph read back holds what the call before it wrote.
    const afterRead = blocks.slice(blocks.indexOf('Call 6 of 6 (read_graph): ok') + 1).join('');
    expect(afterRead).toContain('wrote a batch');
    // The activity feed shows each dispatched call under its real name; the call whose
    // arguments broke the schema was refused by the bridge before any dispatch.
    expect(activity.slice(before).map((entry) => [entry.name, entry.status])).toEqual([
      ['get-sum', 'ok'],
      ['delete_entities', 'denied'],
      ['create_entities', 'ok'],
      ['read_graph', 'ok'],
    ]);
  });

  it('answers a single call in the strict form, arguments as JSON text', async () => {
    const result = await client.call('tool_call', {
      name: 'get-sum',
      arguments: JSON.stringify({ a: 20, b: 22 }),
      calls: null,
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('42');
  });

  it('marks a batch whose every call failed as an error', async () => {
    const result = await client.call('tool_call', {
      calls: [{ name: 'no_such_tool', arguments: '{}' }],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Call 1 of 1 (no_such_tool): error');
  });

  it('answers several queries, several names and a select: query', async () => {
    const searched = await client.bridge('tool_search', {
      query: null,
      queries: ['sum of two numbers', 'create entities in the knowledge graph'],
      limit: 3,
    });
    const groups = searched['results'] as { matches: { name: string }[] }[];
    expect(groups[0]!.matches[0]!.name).toBe('get-sum');
    expect(groups[1]!.matches.map((match) => match.name)).toContain('create_entities');

    const described = await client.bridge('tool_describe', {
      name: null,
      names: ['get-sum', 'read_graph'],
    });
    expect((described['results'] as { name: string }[]).map((entry) => entry.name)).toEqual([
      'get-sum',
      'read_graph',
    ]);

    const selected = await client.bridge('tool_search', {
      query: 'select:read_graph,get-sum',
      queries: null,
      limit: null,
    });
    expect(selected['matches']).toEqual([
      expect.objectContaining({ name: 'read_graph', parameters: expect.any(Object) }),
      expect.objectContaining({ name: 'get-sum', parameters: expect.any(Object) }),
    ]);
  });
});
