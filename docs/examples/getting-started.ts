/**
 * Getting started: a minimal agent loop with tool search. The "model" is scripted
 * (its three tool calls are written out below) so that the example runs as it is;
 * swap `scriptedModel` for your provider's client.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall, unwrapToolCall } from '@tool-search/bridge';
import type { ToolCall } from '@tool-search/core';
import { createDispatcher, type DispatchResult } from '@tool-search/hooks';
import { scopeTools } from '@tool-search/toolsets';
import { tools } from './tools.js';

// #region assemble
// 1. Only this session's toolsets, then the assembly for this turn.
const sessionTools = scopeTools(tools, { enabledToolsets: ['files', 'mcp-github'] });
const assembly = assembleTools({
  tools: sessionTools,
  config: { enabled: 'on' }, // 'auto' (the default) activates at 10% of the context window
  contextWindow: 200_000,
});
console.log(
  assembly.decision.reason,
  assembly.tools.map((tool) => tool.name),
);
// forced-on [ 'read_file', 'tool_search', 'tool_describe', 'tool_call' ]
// #endregion assemble

// #region dispatch
// 2. The runtime's normal dispatch: guardrails → beforeCall hooks → approval → execute → afterCall hooks.
const dispatch = createDispatcher({
  execute: async (call) => {
    if (call.name === 'github_create_issue') return { url: 'https://example.test/issues/1' };
    return { error: `no such tool: ${call.name}` };
  },
  hooks: [
    {
      name: 'log',
      beforeCall: (call, ctx) => {
        console.log(`  hook sees ${call.name}${ctx.via === 'bridge' ? ' (via the bridge)' : ''}`);
      },
    },
  ],
});
// #endregion dispatch

// #region loop
// 3. Every tool call the model makes goes through one function.
const activity: string[] = [];
async function onToolCall(call: ToolCall): Promise<unknown> {
  // The activity line shows the real tool, never `tool_call`.
  const shown = unwrapToolCall(call);
  activity.push(`${shown.name}${shown.viaBridge ? ' (via tool_call)' : ''}`);
  // Bridge calls are answered here; a real call inside `tool_call` goes to `dispatch`.
  const answer = handleBridgeCall(assembly, call, (real, ctx) => dispatch(real, ctx));
  return answer ? await answer : await dispatch(call);
}

const scriptedModel: ToolCall[] = [
  { name: 'tool_search', arguments: { query: 'open a github issue' } },
  { name: 'tool_describe', arguments: { name: 'github_create_issue' } },
  {
    name: 'tool_call',
    arguments: {
      name: 'github_create_issue',
      arguments: { repo: 'acme/app', title: 'Login fails', body: 'Steps: ...' },
    },
  },
];
const results: unknown[] = [];
for (const call of scriptedModel) results.push(await onToolCall(call));
console.log(activity);
// [ 'tool_search', 'tool_describe', 'github_create_issue (via tool_call)' ]
// #endregion loop

const search = results[0] as { matches: { name: string }[] };
assert.equal(search.matches[0]?.name, 'github_create_issue');
assert.ok(!JSON.stringify(search).includes('slack_post_message'), 'slack is not in this session');
const created = results[2] as DispatchResult;
assert.equal(created.status, 'ok');
assert.deepEqual(activity, ['tool_search', 'tool_describe', 'github_create_issue (via tool_call)']);
