// The working-set tests' world: two gateway replicas over one pool, sharing a store and
// its learner (as on one Redis) and the operator's key, with helpers to call a
// credential's stateless view and read the handle of an answer.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createSearchLearner, type SearchLearner } from '@tool-search/core';
import { parseGatewayConfig } from '../config/parse.js';
import { createGatewayServer, type GatewayServer } from '../gateway/server.js';
import type { GatewayStatelessView, StatelessCallOutcome } from '../gateway/stateless-session.js';
import type { GatewayActivity } from '../gateway/types.js';
import { WORKING_SET_ARGUMENT } from '../gateway/working-set.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createUpstreamPool } from '../upstream/pool.js';
import { textOf } from './clients.js';
import { everythingInProcess } from './in-process.js';
import { tempWorkspace } from './servers.js';
import { filesystemInProcess } from './worker-server.js';

/** The operator's key of both replicas. */
export const KEY = new Uint8Array(32).fill(7);

/** The result of a stateless call that did not ask a question. */
export function resultOf(outcome: StatelessCallOutcome): CallToolResult {
  if (!('result' in outcome)) throw new Error('asked a question instead');
  return outcome.result;
}

/** The handle a bridge answer carries (in its structured content, else its `_meta`). */
export function handleOf(result: CallToolResult): string {
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const fromMeta = result._meta?.['tool-search/working_set'];
  const handle = structured?.[WORKING_SET_ARGUMENT] ?? fromMeta;
  if (typeof handle !== 'string') throw new Error(`no handle in ${textOf(result)}`);
  return handle;
}

/** The JSON payload of a handle (readable, not changeable). */
export function payloadOf(handle: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(handle.split('.')[0]!, 'base64url').toString('utf8'));
}

/** Two replicas over the everything and filesystem servers; profiles `files` and `tools`. */
export async function startWorkingSetReplicas() {
  const workspace = tempWorkspace();
  const seen: { name: string; arguments: Record<string, unknown> }[] = [];
  const activity: GatewayActivity[] = [];
  const config = parseGatewayConfig({
    mcpServers: {
      everything: everythingInProcess(),
      filesystem: filesystemInProcess(workspace.directory),
    },
    toolSearch: { enabled: 'on' },
    profiles: {
      files: { enabledToolsets: ['mcp-filesystem'] },
      tools: { enabledToolsets: ['mcp-everything'] },
    },
    learning: { enabled: true },
    approval: { require: ['write_file'], fallback: 'deny' },
  });
  const pool = createUpstreamPool(config);
  await pool.start();
  const learner: SearchLearner = createSearchLearner();
  const store = createMemoryStore();
  const replicaA = createGatewayServer({
    pool,
    config,
    contextWindow: 32_000,
    learner,
    store,
    onActivity: (entry) => activity.push(entry),
    // What the one hooks pipeline sees of each call.
    guardrails: [
      {
        name: 'seen',
        check: (seenCall) => {
          seen.push(structuredClone(seenCall));
          return { allow: true };
        },
      },
    ],
  });
  const replicaB = createGatewayServer({ pool, config, contextWindow: 32_000, learner, store });
  const call = { requestId: 1, signal: new AbortController().signal };
  const view = (gateway: GatewayServer, principal = 'alice', profile = 'files') =>
    gateway.statelessView({ principal, profile, stateKey: KEY });
  const run = async (
    target: GatewayStatelessView,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> => resultOf(await target.callTool({ name, arguments: args }, call));
  return {
    workspace,
    learner,
    store,
    replicaA,
    replicaB,
    seen,
    activity,
    call,
    view,
    run,
    async close() {
      await replicaA.close();
      await replicaB.close();
      await pool.close();
      workspace.cleanup();
    },
  };
}

export type WorkingSetWorld = Awaited<ReturnType<typeof startWorkingSetReplicas>>;
