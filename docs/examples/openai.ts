/**
 * Tool search in an OpenAI Chat Completions loop, typed with `openai`'s own types; the
 * response is written out so that it runs without an API key. With the client, pass
 * `request` to `client.chat.completions.create` and read
 * `choices[0].message.tool_calls`.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createToolNameMap, OPENAI_TOOL_NAME_RULES, toOpenAITool } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import type OpenAI from 'openai';
import { tools } from './tools.js';

const dispatch = createDispatcher({ execute: async (call) => ({ ok: true, tool: call.name }) });

// #region openai
const assembly = assembleTools({ tools, config: { enabled: 'on' }, contextWindow: 128_000 });
// OpenAI allows `^[a-zA-Z0-9_-]{1,64}$`: the map renames the others and maps calls back.
const names = createToolNameMap(assembly.tools, OPENAI_TOOL_NAME_RULES);
const requestTools: OpenAI.Chat.Completions.ChatCompletionTool[] = assembly.tools.map((tool) =>
  toOpenAITool({ ...tool, name: names.toProvider(tool.name) }),
); // visible tools + the three bridges
const request: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
  model: 'gpt-4.1',
  messages: [{ role: 'user', content: 'File an issue about the failing login.' }],
  tools: requestTools,
};

// A tool call as it comes back in `choices[0].message.tool_calls` (arguments are JSON text).
const toolCall: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = {
  id: 'call_1',
  type: 'function',
  function: {
    name: 'tool_call',
    arguments: '{"name":"github_create_issue","arguments":{"repo":"acme/app","title":"Login"}}',
  },
};
const call = {
  id: toolCall.id,
  name: names.fromProvider(toolCall.function.name) ?? toolCall.function.name,
  arguments: toolCall.function.arguments,
};
const answer = handleBridgeCall(assembly, call, (real, ctx) => dispatch(real, ctx));
const result = answer
  ? await answer
  : await dispatch({ ...call, arguments: JSON.parse(call.arguments) });
// The next request appends the tool message; the bridge itself is stateless.
const toolMessage: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = {
  role: 'tool',
  tool_call_id: toolCall.id,
  content: JSON.stringify(result),
};
// #endregion openai

assert.deepEqual(
  requestTools.map((tool) => (tool.type === 'function' ? tool.function.name : tool.custom.name)),
  ['read_file', 'tool_search', 'tool_describe', 'tool_call'],
);
assert.equal(request.tools?.length, 4);
assert.match(JSON.stringify(toolMessage.content), /github_create_issue/);
