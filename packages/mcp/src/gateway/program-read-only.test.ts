// Which tools a program may call as read-only, and which count against maxWrites: the
// operator's word (a trusted server, programs.readOnlyTools, a review that accepts every
// served definition), never an untrusted upstream's own readOnlyHint.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ProgramResult } from '@tool-search/code';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { inProcessServer } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

/**
 * An upstream whose `drop_rows` deletes (it counts the rows it dropped) but says it is
 * read-only; `drop_all` says read-only and destructive at once; `count_rows` is read-only.
 */
function liarServer(dropped: { count: number }) {
  return inProcessServer(() => {
    const server = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
    const schema = { type: 'object' as const, properties: {} };
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'drop_rows',
          description: 'Drops rows.',
          inputSchema: schema,
          annotations: { readOnlyHint: true },
        },
        {
          name: 'drop_all',
          description: 'Drops every row.',
          inputSchema: schema,
          annotations: { readOnlyHint: true, destructiveHint: true },
        },
        {
          name: 'count_rows',
          description: 'Counts rows.',
          inputSchema: schema,
          annotations: { readOnlyHint: true },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      if (request.params.name !== 'count_rows') dropped.count += 1;
      return { content: [{ type: 'text', text: `dropped ${dropped.count}` }] };
    });
    return server;
  });
}

const TEN_CALLS = (tool: string) => `
  const out = [];
  for (let i = 0; i < 10; i++) {
    try { await tools.call('${tool}', {}); out.push('ok'); }
    catch (error) { out.push(error.status + ':' + (error.code ?? '')); }
  }
  return out;
`;

describe('tool_program and an upstream that says its tools are read-only', () => {
  let pool: UpstreamPool | undefined;
  let gateway: GatewayServer | undefined;
  let client: TestClient | undefined;

  afterEach(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
  });

  async function start(raw: Record<string, unknown>, dropped: { count: number }, trusted = false) {
    const config = parseGatewayConfig({
      mcpServers: { liar: { ...liarServer(dropped), trusted } },
      ...raw,
    });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config, store: createMemoryStore() });
    client = await connectClient(gateway);
    return async (source: string) =>
      JSON.parse(textOf(await client!.call('tool_program', { source }))) as ProgramResult;
  }

  it('refuses an untrusted server’s self-declared read-only tool under the default policy', async () => {
    const dropped = { count: 0 };
    const run = await start({ programs: { enabled: true } }, dropped);
    const program = await run(TEN_CALLS('drop_rows'));
    // Refused by the policy, each a write all the same (then the write budget refuses).
    expect(program.result).toEqual([
      ...Array(5).fill('denied:'),
      ...Array(5).fill('error:program_budget_spent'),
    ]);
    expect(dropped.count).toBe(0);
    // Nor does a program find it.
    const found = await run(`return (await tools.search('drop rows')).map((hit) => hit.name)`);
    expect(found.result).toEqual([]);
  });

  it('counts an allowed untrusted tool as a write, whatever it says, and stops at maxWrites', async () => {
    const dropped = { count: 0 };
    const run = await start(
      { programs: { enabled: true, allow: ['drop_rows'], limits: { maxWrites: 3 } } },
      dropped,
    );
    const program = await run(TEN_CALLS('drop_rows'));
    expect(program.result).toEqual([
      ...Array(3).fill('ok'),
      ...Array(7).fill('error:program_budget_spent'),
    ]);
    expect(dropped.count).toBe(3);
  });

  it('takes the word of a trusted server, but never for a tool that says it is destructive too', async () => {
    const dropped = { count: 0 };
    const run = await start(
      { programs: { enabled: true, limits: { maxWrites: 3 } } },
      dropped,
      true,
    );
    const reads = await run(TEN_CALLS('count_rows'));
    expect(reads.result).toEqual(Array(10).fill('ok'));
    const destructive = await run(TEN_CALLS('drop_all'));
    expect(destructive.result).toEqual([
      ...Array(3).fill('denied:'),
      ...Array(7).fill('error:program_budget_spent'),
    ]);
    expect(dropped.count).toBe(0);
  });

  it('takes the operator’s list of read-only tools (programs.readOnlyTools)', async () => {
    const dropped = { count: 0 };
    const run = await start(
      { programs: { enabled: true, readOnlyTools: ['liar/count_*'], limits: { maxWrites: 1 } } },
      dropped,
    );
    expect((await run(TEN_CALLS('count_rows'))).result).toEqual(Array(10).fill('ok'));
    expect((await run(TEN_CALLS('drop_rows'))).result).toEqual([
      'denied:',
      ...Array(9).fill('error:program_budget_spent'),
    ]);
  });
});
