/**
 * Tool search on the OpenAI Responses API's own deferred loading (`client` mode: a
 * `tool_search` with `execution: 'client'`, answered by our catalog with a
 * `tool_search_output`). The real `openai` client talks to a local stand-in that checks
 * every request as the API does and plays the model, so this runs in CI without an API
 * key; with a key, use `new OpenAI()` and drop the stand-in.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createDispatcher } from '@tool-search/hooks';
import type { ProviderMode } from '@tool-search/providers';
import {
  answerOpenAIToolSearch,
  prepareOpenAIResponsesTools,
  toOpenAIFunctionOutput,
  toolCallFromOpenAI,
} from '@tool-search/providers/openai';
import { type ScriptedStep, startOpenAIStandIn } from '@tool-search/providers/testing';
import OpenAI from 'openai';
import { tools } from './tools.js';

const seen: string[] = [];
const dispatch = createDispatcher({
  hooks: [{ name: 'audit', beforeCall: (call) => void seen.push(call.name) }],
  execute: async (call) => ({ ok: true, channel: call.arguments['channel'] }),
});

// #region openai-native
async function announce(client: OpenAI, model: string, mode: ProviderMode = 'auto') {
  const prepared = await prepareOpenAIResponsesTools(tools, {
    model, // `auto` picks 'client' for gpt-5.4+, else the bridge
    mode,
    contextWindow: 400_000,
    config: { enabled: 'on' },
    strict: true, // strict-mode schemas; toolCallFromOpenAI undoes the nulls
    bridge: assembleTools,
  });
  const input: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'Tell #ops that the deploy is done.' },
  ];
  for (;;) {
    const response = await client.responses.create({ model, input, tools: prepared.tools });
    // Carry the whole output over: hosted search items, reasoning, messages, calls.
    input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
    let answered = false;
    for (const item of response.output) {
      if (item.type === 'tool_search_call' && item.execution === 'client') {
        // Our ranker answers with the found functions; the platform loads them.
        input.push(await answerOpenAIToolSearch(prepared, item));
        answered = true;
      } else if (item.type === 'function_call') {
        const call = toolCallFromOpenAI(prepared, item); // name mapped back, nulls restored
        const outcome = prepared.bridge
          ? await (handleBridgeCall(prepared.bridge, call, (real, ctx) => dispatch(real, ctx)) ??
              dispatch(call))
          : await dispatch(call);
        input.push(toOpenAIFunctionOutput(item.call_id, outcome)); // content only
        answered = true;
      }
    }
    if (!answered) return { prepared, answer: response.output_text };
  }
}
// #endregion openai-native

const post = { channel: '#ops', text: 'Deployed' };
const runs: [string, ProviderMode, ScriptedStep[]][] = [
  [
    'gpt-5.5',
    'auto',
    [{ search: 'post a slack message' }, { call: 'slack_post_message', input: post }],
  ],
  [
    'gpt-5.5',
    'hosted',
    [{ search: 'post a slack message' }, { call: 'slack_post_message', input: post }],
  ],
  [
    'gpt-4.1', // no native tool search: `auto` picks the bridge
    'auto',
    [
      { call: 'tool_search', input: { query: 'post a slack message', limit: null } },
      { call: 'tool_call', input: { name: 'slack_post_message', arguments: post, calls: null } },
    ],
  ],
];
for (const [model, mode, steps] of runs) {
  seen.length = 0;
  const standIn = await startOpenAIStandIn({ steps: [...steps, { reply: 'Posted:' }] });
  const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test' });
  const { prepared, answer } = await announce(client, model, mode);
  await standIn.close();
  assert.deepEqual(standIn.violations, [], `${model} ${mode}`);
  assert.deepEqual(seen, ['slack_post_message']);
  assert.match(answer, /Posted:.*#ops/);
  console.log(`native-openai: ${model} -> ${prepared.mode} (${prepared.reason})`);
}
