/**
 * Tool search in an OpenAI Chat Completions loop, without the SDK: the request and
 * response shapes are written out. With the SDK, pass `tools` to
 * `client.chat.completions.create` and read `choices[0].message.tool_calls`.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { toOpenAITool } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { tools } from './tools.js';

const dispatch = createDispatcher({ execute: async (call) => ({ ok: true, tool: call.name }) });

// #region openai
const assembly = assembleTools({ tools, config: { enabled: 'on' }, contextWindow: 128_000 });
const request = {
  model: 'gpt-4.1',
  messages: [{ role: 'user', content: 'File an issue about the failing login.' }],
  tools: assembly.tools.map(toOpenAITool), // visible tools + the three bridges
};

// A tool call as it comes back in `choices[0].message.tool_calls` (arguments are JSON text).
const toolCall = {
  id: 'call_1',
  type: 'function' as const,
  function: {
    name: 'tool_call',
    arguments: '{"name":"github_create_issue","arguments":{"repo":"acme/app","title":"Login"}}',
  },
};
const call = {
  id: toolCall.id,
  name: toolCall.function.name,
  arguments: toolCall.function.arguments,
};
const answer = handleBridgeCall(assembly, call, (real, ctx) => dispatch(real, ctx));
const result = answer
  ? await answer
  : await dispatch({ ...call, arguments: JSON.parse(call.arguments) });
// The next request appends the tool message; the bridge itself is stateless.
const toolMessage = { role: 'tool', tool_call_id: toolCall.id, content: JSON.stringify(result) };
// #endregion openai

assert.deepEqual(
  request.tools.map((tool) => tool.function.name),
  ['read_file', 'tool_search', 'tool_describe', 'tool_call'],
);
assert.match(toolMessage.content, /github_create_issue/);
