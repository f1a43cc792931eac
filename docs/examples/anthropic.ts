/**
 * Tool search in an Anthropic Messages loop, typed with `@anthropic-ai/sdk`'s own
 * types; the response is written out so that it runs without an API key. With the
 * client, pass `request` to `client.messages.create` and read the `tool_use` blocks of
 * `content`.
 */
import { strict as assert } from 'node:assert';
import type Anthropic from '@anthropic-ai/sdk';
import { assembleTools, handleBridgeCall, unwrapToolCall } from '@tool-search/bridge';
import { toAnthropicTool } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { toAnthropicToolResult } from '@tool-search/providers/anthropic';
import { tools } from './tools.js';

const dispatch = createDispatcher({ execute: async (call) => `ran ${call.name}` });

// #region anthropic
const assembly = assembleTools({ tools, config: { enabled: 'on' }, contextWindow: 200_000 });
const requestTools: Anthropic.Tool[] = assembly.tools.map(toAnthropicTool);
const request: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  tools: requestTools,
  messages: [{ role: 'user', content: 'Which pull requests are open on acme/app?' }],
};

// A `tool_use` block from the response's `content` (input is already an object).
const toolUse: Anthropic.ToolUseBlockParam = {
  type: 'tool_use',
  id: 'toolu_1',
  name: 'tool_search',
  input: { query: 'list open pull requests' },
};
// The SDK types `input` as unknown; the API sends the object the tool's schema describes.
const call = {
  id: toolUse.id,
  name: toolUse.name,
  arguments: toolUse.input as Record<string, unknown>,
};
const answer = handleBridgeCall(assembly, call, (real, ctx) => dispatch(real, ctx));
const result = answer ? await answer : await dispatch(call);
// The content alone (no echoed arguments), with is_error on a denied or failed call.
const block = toAnthropicToolResult(toolUse.id, result);
const toolResult: Anthropic.MessageParam = { role: 'user', content: [block] };
console.log(unwrapToolCall(call).name, toolResult.role, block.content.slice(0, 80));
// #endregion anthropic

assert.equal(requestTools.at(-1)?.name, 'tool_call');
assert.equal(request.tools?.length, requestTools.length);
assert.match(JSON.stringify(result), /github_list_pull_requests/);
