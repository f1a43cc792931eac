/**
 * Learning from use with the AI SDK: one conversation searches in its own words and calls
 * the tool it found; a later conversation's search of the same profile ranks that tool
 * higher. The model is the scripted test model of `@tool-search/ai-sdk/testing`, so that
 * this runs without an API key.
 */
import { strict as assert } from 'node:assert';
import { toolSetFromDefinitions, withToolSearch } from '@tool-search/ai-sdk';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { createCatalog, createSearchLearner } from '@tool-search/core';
import { generateText, stepCountIs } from 'ai';
import { tools as definitions } from './tools.js';

const tools = toolSetFromDefinitions(definitions, (call) => ({ ok: true, tool: call.name }));

// #region ai-sdk
// One learner per process; each conversation's setup records to it for its profile.
const learner = createSearchLearner();
const rankOf = async (tool: string, query: string) => {
  const catalog = createCatalog(definitions, { learner, profile: 'team-a' });
  return (await catalog.search(query, { limit: 10 })).findIndex((hit) => hit.name === tool) + 1;
};
const before = await rankOf('slack_post_message', 'ping the team'); // 0: not found at all

const search = withToolSearch(tools, {
  config: { enabled: 'on' },
  learning: { learner, profile: 'team-a', token: 'user-42' },
});
await generateText({
  model: createScriptedModel([
    { tool: 'tool_search', input: { query: 'ping the team channel about the release' } },
    {
      tool: 'tool_call',
      input: { name: 'slack_post_message', arguments: { channel: 'C1', text: 'out' } },
    },
    { text: 'Sent.' },
  ]),
  ...search,
  stopWhen: stepCountIs(4),
  prompt: 'Tell the team the release is out.',
});
// No flush() here: the pair was recorded when the call succeeded, and the in-memory learner
// holds it at once. With a store that writes asynchronously (Redis), wait for the writes:
await search.learning?.flush();

const after = await rankOf('slack_post_message', 'ping the team'); // 1: first
console.log({ before, after });
// #endregion ai-sdk

assert.ok(before === 0 || before > after, `ranked #${before} before, #${after} after`);
assert.equal(after, 1);
