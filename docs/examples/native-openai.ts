/**
 * Tool search on the OpenAI Responses API's own deferred loading (`client` mode: a
 * `tool_search` with `execution: 'client'`, answered by our catalog with a
 * `tool_search_output`). The real `openai` client talks to a local stand-in that checks
 * every request as the API does and plays the model, so this runs in CI without an API
 * key; with a key, use `new OpenAI()` and drop the stand-in.
 */
import { strict as assert } from 'node:assert';
import { createDispatcher } from '@tool-search/hooks';
import { restoreStrictArguments } from '@tool-search/providers';
import { answerOpenAIToolSearch, prepareOpenAIResponsesTools } from '@tool-search/providers/openai';
import { startOpenAIStandIn } from '@tool-search/providers/testing';
import OpenAI from 'openai';
import { tools } from './tools.js';

const seen: string[] = [];
const dispatch = createDispatcher({
  hooks: [{ name: 'audit', beforeCall: (call) => void seen.push(call.name) }],
  execute: async (call) => ({ ok: true, channel: call.arguments['channel'] }),
});
const standIn = await startOpenAIStandIn({
  steps: [
    { search: 'post a slack message' },
    { call: 'slack_post_message', input: { channel: '#ops', text: 'Deployed' } },
    { reply: 'Posted:' },
  ],
});
const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test' });

// #region openai-native
const prepared = await prepareOpenAIResponsesTools(tools, {
  model: 'gpt-5.5', // `auto` picks 'client' for it from the capability table
  contextWindow: 400_000,
  config: { enabled: 'on' },
  strict: true, // strict-mode schemas; restoreStrictArguments undoes the nulls
});
const input: OpenAI.Responses.ResponseInputItem[] = [
  { role: 'user', content: 'Tell #ops that the deploy is done.' },
];
let answer = '';
for (let done = false; !done; ) {
  const response = await client.responses.create({
    model: 'gpt-5.5',
    input,
    tools: prepared.tools,
  });
  done = true;
  for (const item of response.output) {
    if (item.type === 'tool_search_call' && item.execution === 'client') {
      // Our ranker answers with the found functions; the platform loads them.
      input.push(item, await answerOpenAIToolSearch(prepared, item));
      done = false;
    } else if (item.type === 'function_call') {
      const name = prepared.names.fromProvider(item.name) ?? item.name;
      const schema = tools.find((tool) => tool.name === name)?.inputSchema ?? {};
      const args = restoreStrictArguments(schema, JSON.parse(item.arguments));
      const outcome = await dispatch({
        id: item.call_id,
        name,
        arguments: args as Record<string, unknown>,
      });
      input.push(item, {
        type: 'function_call_output',
        call_id: item.call_id,
        output: JSON.stringify(outcome),
      });
      done = false;
    }
  }
  answer = response.output_text;
}
// #endregion openai-native

await standIn.close();
assert.equal(prepared.mode, 'client');
assert.deepEqual(standIn.violations, []);
assert.deepEqual(seen, ['slack_post_message']);
assert.match(answer, /Posted:.*#ops/);
