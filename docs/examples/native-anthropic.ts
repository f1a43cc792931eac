/**
 * Tool search on Anthropic's own deferred loading (`client` mode: our catalog answers the
 * searches with `tool_reference` blocks). The real `@anthropic-ai/sdk` client talks to a
 * local stand-in that checks every request as the API does and plays the model, so this
 * runs in CI without an API key; with a key, use `new Anthropic()` and drop the stand-in.
 */
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import { assembleTools } from '@tool-search/bridge';
import { toAnthropicTool } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { answerAnthropicToolSearch, prepareAnthropicTools } from '@tool-search/providers/anthropic';
import { startAnthropicStandIn } from '@tool-search/providers/testing';
import { tools } from './tools.js';

const seen: string[] = [];
const dispatch = createDispatcher({
  hooks: [{ name: 'audit', beforeCall: (call) => void seen.push(call.name) }],
  execute: async (call) => ({ number: 42, title: call.arguments['title'] }),
});
const standIn = await startAnthropicStandIn({
  steps: [
    { search: 'create an issue on github' },
    { call: 'github_create_issue', input: { repo: 'acme/app', title: 'Login', body: '500' } },
    { reply: 'Filed:' },
  ],
});
const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test' });

// #region anthropic-native
const prepared = await prepareAnthropicTools(tools, {
  model: 'claude-sonnet-4-5', // `auto` picks 'client' for it from the capability table
  contextWindow: 200_000,
  config: { enabled: 'on' },
});
const messages: Anthropic.MessageParam[] = [
  { role: 'user', content: 'File an issue about the failing login on acme/app.' },
];
for (;;) {
  const message = await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools: prepared.tools, // deferred tools carry defer_loading: true
    messages,
  });
  messages.push({ role: 'assistant', content: message.content });
  if (message.stop_reason !== 'tool_use') break;
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const block of message.content) {
    if (block.type !== 'tool_use') continue;
    if (block.name === prepared.searchToolName) {
      // Our ranker answers; the platform loads the tools the references name.
      results.push(await answerAnthropicToolSearch(prepared, block));
    } else {
      // The model calls the loaded tool by its own name: dispatch it as usual.
      const name = prepared.names.fromProvider(block.name) ?? block.name;
      const input = block.input as Record<string, unknown>;
      const outcome = await dispatch({ id: block.id, name, arguments: input });
      results.push({
        type: 'tool_result',
        tool_use_id: block.id,
        content: JSON.stringify(outcome),
      });
    }
  }
  messages.push({ role: 'user', content: results });
}
// #endregion anthropic-native

// #region anthropic-bridge
// A model without native tool search: `auto` picks 'bridge'. The bridge's assembly makes
// the same decision over the same tools and adds its three tools.
const older = await prepareAnthropicTools(tools, {
  model: 'claude-3-5-haiku-latest',
  config: { enabled: 'on' },
});
if (older.mode === 'bridge') {
  const assembly = assembleTools({ tools, config: { enabled: 'on' } });
  const bridged: Anthropic.Tool[] = assembly.tools.map(toAnthropicTool);
  // ...then the loop of the providers guide: handleBridgeCall answers the bridge tools.
  assert.deepEqual(
    assembly.deferred.map((tool) => tool.name),
    older.deferred,
  );
  assert.deepEqual(
    bridged.slice(-3).map((tool) => tool.name),
    ['tool_search', 'tool_describe', 'tool_call'],
  );
}
// #endregion anthropic-bridge

await standIn.close();
assert.equal(prepared.mode, 'client');
assert.deepEqual(standIn.violations, []);
assert.deepEqual(seen, ['github_create_issue']);
assert.match(JSON.stringify(messages.at(-1)), /Filed:.*number\W+42/);
