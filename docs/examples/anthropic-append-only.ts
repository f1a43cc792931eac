/**
 * Append-only tool loading on Anthropic with thinking on: the conversation's `tools` stay
 * as its first request sent them, and a tool that arrives mid-conversation (a server that
 * connects) comes in as a `tool_addition` block in `messages`. The real `@anthropic-ai/sdk`
 * client talks to a local stand-in that refuses a changed `tools` array after a thinking
 * block, as the API does on the 5.x models.
 */
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import type { ToolDefinition } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import {
  ANTHROPIC_TOOL_CHANGE_BETAS,
  answerAnthropicToolSearch,
  createAnthropicToolLog,
  dispatchAnthropicToolUse,
  prepareAnthropicTools,
} from '@tool-search/providers/anthropic';
import { startAnthropicStandIn } from '@tool-search/providers/testing';
import { tools } from './tools.js';

const seen: string[] = [];
const dispatch = createDispatcher({
  hooks: [{ name: 'audit', beforeCall: (call) => void seen.push(call.name) }],
  execute: async (call) => ({ ok: true, tool: call.name }),
});
const jira: ToolDefinition = {
  name: 'jira_create_ticket',
  description: 'Create a Jira ticket.',
  inputSchema: {
    type: 'object',
    properties: { summary: { type: 'string' } },
    required: ['summary'],
  },
  source: 'mcp',
};
// The session's tools now: Jira connects once the first call has run.
const sessionTools = () => (seen.length > 0 ? [...tools, jira] : tools);

// #region anthropic-append-only
async function run(client: Anthropic) {
  const prepared = await prepareAnthropicTools(sessionTools(), {
    model: 'claude-sonnet-5-5',
    contextWindow: 200_000,
    config: { enabled: 'on' },
  });
  const log = createAnthropicToolLog(prepared); // the first request's tools, for good
  const messages: Anthropic.Beta.BetaMessageParam[] = [
    { role: 'user', content: 'File the login bug on GitHub and in Jira.' },
  ];
  for (;;) {
    const message = await client.beta.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      betas: [...ANTHROPIC_TOOL_CHANGE_BETAS],
      tools: prepared.tools, // never changes within the conversation
      messages,
    });
    messages.push({
      role: 'assistant',
      content: message.content as Anthropic.Beta.BetaContentBlockParam[],
    });
    if (message.stop_reason !== 'tool_use') return messages;
    const content: Anthropic.Beta.BetaContentBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      if (block.name === prepared.searchToolName) {
        content.push(await answerAnthropicToolSearch(prepared, block));
      } else {
        const name = log.fromProvider(block.name) ?? block.name;
        content.push(await dispatchAnthropicToolUse(prepared, { ...block, name }, dispatch));
      }
    }
    // Tools that arrived or left since: tool_addition / tool_removal blocks, appended.
    content.push(...log.changes(sessionTools()));
    messages.push({ role: 'user', content });
  }
}
// #endregion anthropic-append-only

const standIn = await startAnthropicStandIn({
  steps: [
    { search: 'create an issue on github' },
    { call: 'github_create_issue', input: { repo: 'acme/app', title: 'Login', body: '500' } },
    { call: 'jira_create_ticket', input: { summary: 'Login' } },
    { reply: 'Filed:' },
  ],
});
const messages = await run(new Anthropic({ baseURL: standIn.url, apiKey: 'test' }));
await standIn.close();
assert.deepEqual(standIn.violations, []);
assert.deepEqual(seen, ['github_create_issue', 'jira_create_ticket']);
assert.match(JSON.stringify(messages.at(-1)), /Filed:/);
console.log('anthropic-append-only: thinking kept, jira_create_ticket added in messages');
