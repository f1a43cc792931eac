/**
 * Tool search in an OpenAI Chat Completions loop, typed with `openai`'s own types; the
 * response is written out so that it runs without an API key. With the client, pass
 * `request` to `client.chat.completions.create` and read
 * `choices[0].message.tool_calls`.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall, isBridgeToolName } from '@tool-search/bridge';
import {
  createToolNameMap,
  OPENAI_TOOL_NAME_RULES,
  toOpenAIResponsesTool,
  toOpenAITool,
} from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { renderToolOutcome } from '@tool-search/providers';
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
  content: renderToolOutcome(result).text, // the content alone, no echoed arguments
};
// #endregion openai

// #region openai-strict
// Strict mode (`strict: true`) accepts only closed schemas: ask the bridge for its strict form.
const strictAssembly = assembleTools({ tools, config: { enabled: 'on' }, strict: true });
const responsesTools: OpenAI.Responses.FunctionTool[] = strictAssembly.tools.map((tool) => ({
  ...toOpenAIResponsesTool(tool),
  strict: isBridgeToolName(tool.name), // your own tools: only when their schemas are strict too
}));
// A strict model sends every field (null when unused) and `arguments` as JSON text; one
// tool_call may carry several calls, each dispatched on its own, in order.
const batch: OpenAI.Responses.ResponseFunctionToolCall = {
  type: 'function_call',
  call_id: 'call_2',
  name: 'tool_call',
  arguments: JSON.stringify({
    name: null,
    arguments: null,
    calls: [
      {
        name: 'github_create_issue',
        arguments: '{"repo":"acme/app","title":"Login","body":"500"}',
      },
      { name: 'slack_post_message', arguments: '{"channel":"#dev","text":"Filed it"}' },
    ],
  }),
};
const batchAnswer = await handleBridgeCall(
  strictAssembly,
  { id: batch.call_id, name: batch.name, arguments: batch.arguments },
  (real, ctx) => dispatch(real, ctx),
); // { results: [one answer per call, in order] }
// #endregion openai-strict

assert.equal(
  responsesTools.filter((tool) => tool.strict).length,
  3,
  'the three bridge tools are strict',
);
assert.deepEqual(
  (batchAnswer as { results: { status: string; call: { name: string } }[] }).results.map(
    (entry) => `${entry.call.name}:${entry.status}`,
  ),
  ['github_create_issue:ok', 'slack_post_message:ok'],
);
assert.deepEqual(
  requestTools.map((tool) => (tool.type === 'function' ? tool.function.name : tool.custom.name)),
  ['read_file', 'tool_search', 'tool_describe', 'tool_call'],
);
assert.equal(request.tools?.length, 4);
assert.match(JSON.stringify(toolMessage.content), /github_create_issue/);
