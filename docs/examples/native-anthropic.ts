/**
 * Tool search on Anthropic's own deferred loading (`client` mode: our catalog answers the
 * searches with `tool_reference` blocks). The real `@anthropic-ai/sdk` client talks to a
 * local stand-in that checks every request as the API does and plays the model, so this
 * runs in CI without an API key; with a key, use `new Anthropic()` and drop the stand-in.
 */
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createDispatcher } from '@tool-search/hooks';
import type { ProviderMode } from '@tool-search/providers';
import {
  answerAnthropicToolSearch,
  prepareAnthropicTools,
  toAnthropicToolResult,
  toolCallFromAnthropic,
} from '@tool-search/providers/anthropic';
import { type ScriptedStep, startAnthropicStandIn } from '@tool-search/providers/testing';
import { tools } from './tools.js';

const seen: string[] = [];
const dispatch = createDispatcher({
  hooks: [{ name: 'audit', beforeCall: (call) => void seen.push(call.name) }],
  execute: async (call) => ({ number: 42, title: call.arguments['title'] }),
});

// #region anthropic-native
async function fileIssue(client: Anthropic, model: string, mode: ProviderMode = 'auto') {
  const prepared = await prepareAnthropicTools(tools, {
    model, // `auto` picks 'client' for Claude 4.5+ (Bedrock, Vertex and router ids too)
    mode,
    contextWindow: 200_000,
    config: { enabled: 'on' },
    bridge: assembleTools, // older models: the three bridge tools instead of nothing
    cacheControl: { type: 'ephemeral' }, // on the last tool that is not deferred
  });
  const messages: Anthropic.MessageParam[] = [
    { role: 'user', content: 'File an issue about the failing login on acme/app.' },
  ];
  for (;;) {
    const message = await client.messages.create({
      model,
      max_tokens: 1024,
      tools: prepared.tools, // deferred tools carry defer_loading: true
      messages,
    });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') return { prepared, messages };
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      if (block.name === prepared.searchToolName) {
        // Our ranker answers; the platform loads the tools the references name.
        results.push(await answerAnthropicToolSearch(prepared, block));
        continue;
      }
      // A real tool by its own name (or, in bridge mode, a bridge tool): dispatch it.
      const call = toolCallFromAnthropic(prepared, block);
      const outcome = prepared.bridge
        ? await (handleBridgeCall(prepared.bridge, call, (real, ctx) => dispatch(real, ctx)) ??
            dispatch(call))
        : await dispatch(call);
      results.push(toAnthropicToolResult(block.id, outcome)); // content only; is_error on failure
    }
    messages.push({ role: 'user', content: results });
  }
}
// #endregion anthropic-native

const issue = { repo: 'acme/app', title: 'Login', body: '500' };
const runs: [string, ProviderMode, ScriptedStep[]][] = [
  [
    'claude-sonnet-5-5',
    'auto',
    [{ search: 'create an issue on github' }, { call: 'github_create_issue', input: issue }],
  ],
  [
    'claude-sonnet-5-5',
    'hosted',
    [{ search: 'create an issue on github' }, { call: 'github_create_issue', input: issue }],
  ],
  [
    'claude-3-5-haiku-latest', // no native tool search: `auto` picks the bridge
    'auto',
    [
      { call: 'tool_search', input: { query: 'create an issue on github' } },
      { call: 'tool_call', input: { name: 'github_create_issue', arguments: issue } },
    ],
  ],
];
for (const [model, mode, steps] of runs) {
  seen.length = 0;
  const standIn = await startAnthropicStandIn({ steps: [...steps, { reply: 'Filed:' }] });
  const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test' });
  const { prepared, messages } = await fileIssue(client, model, mode);
  await standIn.close();
  assert.deepEqual(standIn.violations, [], `${model} ${mode}`);
  assert.deepEqual(seen, ['github_create_issue']);
  assert.match(JSON.stringify(messages.at(-1)), /Filed:.*number\W+42/);
  assert.doesNotMatch(JSON.stringify(messages.at(-1)), /acme\/app/); // no echoed arguments
  console.log(`native-anthropic: ${model} -> ${prepared.mode} (${prepared.reason})`);
}
