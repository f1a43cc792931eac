/**
 * The security model in code: a session sees only its toolsets, a subagent never
 * more than its parent, and dispatch fails closed.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createDispatcher, type DispatchResult, type Guardrail } from '@tool-search/hooks';
import { narrowScope, scopeTools } from '@tool-search/toolsets';
import { tools } from './tools.js';

// #region scope
const parent = { enabledToolsets: ['files', 'mcp-github'], disabledToolsets: ['mcp-slack'] };
// A subagent asks for Slack too; it gets what its parent allows, and a list of refusals.
const child = narrowScope(parent, { enabledToolsets: ['mcp-github', 'mcp-slack'] });
console.log(
  child.enabledToolsets,
  child.refused.map((refusal) => refusal.toolset),
);
// [ 'mcp-github' ] [ 'mcp-slack' ]

const assembly = assembleTools({ tools: scopeTools(tools, child), config: { enabled: 'on' } });
// The catalog holds only the child's tools, so tool_call cannot reach anything else.
const refused = await handleBridgeCall(
  assembly,
  { name: 'tool_call', arguments: { name: 'slack_post_message', arguments: { text: 'hi' } } },
  () => {
    throw new Error('never dispatched');
  },
);
console.log(refused);
// { error: "'slack_post_message' is not available in this session. Use tool_search to find tools you can call.", ... }
// #endregion scope

// #region fail-closed
const flaky: Guardrail = {
  name: 'policy-service',
  check: () => {
    throw new Error('policy service unreachable');
  },
};
const dispatch = createDispatcher({
  guardrails: [flaky],
  execute: () => {
    throw new Error('never executed');
  },
});
const denied = await dispatch({ name: 'github_merge_pull_request', arguments: { number: '7' } });
console.log(denied.status, denied.status === 'denied' ? denied.reason : '');
// denied (the guardrail threw, so the call does not run)
// #endregion fail-closed

assert.deepEqual(child.enabledToolsets, ['mcp-github']);
assert.match(JSON.stringify(refused), /is not available in this session/);
assert.equal((denied as DispatchResult).status, 'denied');
