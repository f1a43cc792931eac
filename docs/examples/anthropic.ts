/**
 * Tool search in an Anthropic Messages loop, without the SDK: the request and
 * response shapes are written out. With the SDK, pass `tools` to
 * `client.messages.create` and read the `tool_use` blocks of `content`.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall, unwrapToolCall } from '@tool-search/bridge';
import { toAnthropicTool } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { tools } from './tools.js';

const dispatch = createDispatcher({ execute: async (call) => `ran ${call.name}` });

// #region anthropic
const assembly = assembleTools({ tools, config: { enabled: 'on' }, contextWindow: 200_000 });
const request = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  tools: assembly.tools.map(toAnthropicTool),
  messages: [{ role: 'user', content: 'Which pull requests are open on acme/app?' }],
};

// A `tool_use` block from the response's `content` (input is already an object).
const toolUse = {
  type: 'tool_use' as const,
  id: 'toolu_1',
  name: 'tool_search',
  input: { query: 'list open pull requests' },
};
const call = { id: toolUse.id, name: toolUse.name, arguments: toolUse.input };
const answer = handleBridgeCall(assembly, call, (real, ctx) => dispatch(real, ctx));
const result = answer ? await answer : await dispatch(call);
const toolResult = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: JSON.stringify(result) }],
};
console.log(unwrapToolCall(call).name, toolResult.content[0]?.content.slice(0, 80));
// #endregion anthropic

assert.equal(request.tools.at(-1)?.name, 'tool_call');
assert.match(JSON.stringify(result), /github_list_pull_requests/);
