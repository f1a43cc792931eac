// The A/B's world: the fixture MCP servers over stdio behind one upstream pool, the real
// dispatcher of @tool-search/hooks over it (the program policy, an approval that asks a
// callback about tickets, and a hook that counts dispatches), and tool_program over the
// same dispatcher. Both arms of every task run against one world.
import { fileURLToPath } from 'node:url';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createProgramPolicy, createProgramTool, type ProgramTool } from '@tool-search/code';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import {
  createCallbackApproval,
  createDispatcher,
  createPolicyApproval,
  type Dispatcher,
} from '@tool-search/hooks';
import { createUpstreamPool, type UpstreamPool } from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';

/** The fixture servers; all but the catalog are pinned (loaded up front). */
export const SERVERS = ['people', 'crm', 'billing', 'exports', 'tickets', 'inventory', 'catalog'];
const PINNED = SERVERS.filter((name) => name !== 'catalog');
const SERVER = fileURLToPath(new URL('./servers/fixture-server.ts', import.meta.url));

/** What the world counted. */
export interface WorldCounts {
  /** Dispatches (direct, through tool_call, or from a program). */
  dispatches: number;
  /** Of those, the ones a program made (`via: 'program'`). */
  fromPrograms: number;
  /** Approvals asked of the callback. */
  approvals: number;
}

/** The running world. */
export interface World {
  pool: UpstreamPool;
  dispatch: Dispatcher;
  program: ProgramTool;
  tools(): ToolDefinition[];
  counts: WorldCounts;
  close(): Promise<void>;
}

/** Text of an MCP result's text parts. */
function textOf(result: { content?: unknown }): string {
  const parts = Array.isArray(result.content) ? result.content : [];
  return parts
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/**
 * The host's executor: the upstream's result as a value (its `structuredContent`, else its
 * text); an `isError` result throws, so the dispatcher reports it as an error, directly
 * and inside a program alike.
 */
function execute(pool: UpstreamPool) {
  return async (call: ToolCall, ctx: { signal: AbortSignal }): Promise<unknown> => {
    const result = await pool.callTool(call.name, call.arguments, { signal: ctx.signal });
    if (result.isError === true) throw new Error(textOf(result));
    return result.structuredContent ?? textOf(result);
  };
}

/**
 * Loads what the first search and the first program load (the ranker's language model,
 * the sandbox), so that no arm's wall time carries a cost of the process's first use.
 */
async function warmUp(pool: UpstreamPool, program: ProgramTool): Promise<void> {
  await program.warm();
  const assembly = assembleTools({ tools: pool.tools(), config: { enabled: 'on' } });
  await handleBridgeCall(assembly, { name: 'tool_search', arguments: { query: 'warm up' } }, () =>
    Promise.reject(new Error('a search dispatches nothing')),
  );
  const warm = await program.run({ source: "return (await tools.search('warm up')).length" });
  if (warm.status !== 'completed')
    throw new Error(`the sandbox did not start: ${warm.error?.message}`);
}

/**
 * Starts the fixture servers (each `node --import tsx` over stdio) and the world over them.
 *
 * @throws the pool's error when a server does not start
 */
export async function startWorld(): Promise<World> {
  const tsx = import.meta.resolve('tsx');
  const mcpServers = Object.fromEntries(
    SERVERS.map((name) => [
      name,
      { command: process.execPath, args: ['--import', tsx, SERVER], env: { EVAL_SERVER: name } },
    ]),
  );
  // Seven servers start at once, each compiling its TypeScript: on a loaded machine that
  // takes longer than the pool's default 30 s.
  const pool = createUpstreamPool(parseGatewayConfig({ mcpServers, pins: { servers: PINNED } }), {
    reconnect: false,
    connectTimeoutMs: 180_000,
  });
  await pool.start();
  const down = pool.status().filter((status) => status.state !== 'ready');
  if (down.length > 0) {
    await pool.close();
    throw new Error(
      `fixture servers did not start: ${down.map((s) => `${s.name} (${s.error})`).join(', ')}`,
    );
  }
  const counts: WorldCounts = { dispatches: 0, fromPrograms: 0, approvals: 0 };
  const policy = createProgramPolicy({ allow: ['tickets_create_ticket'] });
  const dispatch = createDispatcher({
    execute: execute(pool),
    resolveTool: (name) => pool.tools().find((tool) => tool.name === name),
    guardrails: [policy],
    approval: createPolicyApproval({
      require: { tools: ['tickets_*'] },
      autoApprove: { annotations: { readOnlyHint: true } },
      ask: createCallbackApproval(
        () => {
          counts.approvals += 1;
          return true;
        },
        { name: 'person' },
      ),
    }),
    hooks: [
      {
        name: 'count',
        onSettled: (_settled, ctx) => {
          counts.dispatches += 1;
          if (ctx.via === 'program') counts.fromPrograms += 1;
        },
      },
    ],
  });
  const program = createProgramTool({ tools: () => pool.tools(), dispatch, policy, poolSize: 1 });
  await warmUp(pool, program);
  return {
    pool,
    dispatch,
    program,
    counts,
    tools: () => pool.tools(),
    async close() {
      await program.close();
      await pool.close();
    },
  };
}
