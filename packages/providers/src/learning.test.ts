import Anthropic from '@anthropic-ai/sdk';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import {
  createLearningSession,
  createSearchLearner,
  type LearningSession,
  type SearchLearner,
} from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import { answerAnthropicToolSearch, prepareAnthropicTools } from './anthropic.js';
import { dispatchAnthropicToolUse } from './anthropic-program-calls.js';
import { answerOpenAIToolSearch, prepareOpenAIResponsesTools } from './openai.js';
import { dispatchOpenAIFunctionCall } from './openai-program-calls.js';
import type { ProviderDispatch } from './programmatic.js';
import { type StandIn, startAnthropicStandIn, startOpenAIStandIn } from './testing/index.js';

// Words that lead to `github.create_issue` in this traffic, though on words alone the
// pull-request tool ranks first ("open" and "github" are in its description).
const QUERY = 'open a ticket on github';
const ISSUE = { repo: 'acme/app', title: 'Login fails' };

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

/** The order our client-mode search answers `QUERY` in, for a fresh session of `learner`. */
async function anthropicRanking(learner: SearchLearner, profile?: string): Promise<string[]> {
  const prepared = await prepareAnthropicTools(sessionTools, {
    mode: 'client',
    config: { enabled: 'on' },
    learning: createLearningSession({ learner, ...(profile === undefined ? {} : { profile }) }),
  });
  const answer = await answerAnthropicToolSearch(prepared, {
    id: 'toolu_rank',
    name: 'tool_search',
    input: { query: QUERY },
  });
  return (answer.content as { tool_name: string }[]).map((block) => block.tool_name);
}

/** One user turn on Anthropic in client mode, every call through `dispatchAnthropicToolUse`. */
async function anthropicTurn(learning: LearningSession, dispatch: ProviderDispatch) {
  const prepared = await prepareAnthropicTools(sessionTools, {
    mode: 'client',
    config: { enabled: 'on' },
    learning,
  });
  standIn = await startAnthropicStandIn({
    steps: [{ search: QUERY }, { call: 'github_create_issue', input: ISSUE }, { reply: 'Filed.' }],
  });
  const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'File the login bug.' }];
  for (let turn = 0; turn < 5; turn += 1) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: prepared.tools,
      messages,
    });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') break;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      results.push(
        block.name === prepared.searchToolName
          ? await answerAnthropicToolSearch(prepared, block)
          : await dispatchAnthropicToolUse(prepared, block, dispatch),
      );
    }
    messages.push({ role: 'user', content: results });
  }
  await learning.flush();
}

/** One user turn on OpenAI in client mode, every call through `dispatchOpenAIFunctionCall`. */
async function openAITurn(learning: LearningSession, dispatch: ProviderDispatch) {
  const prepared = await prepareOpenAIResponsesTools(sessionTools, {
    mode: 'client',
    config: { enabled: 'on' },
    learning,
  });
  standIn = await startOpenAIStandIn({
    steps: [{ search: QUERY }, { call: 'github_create_issue', input: ISSUE }, { reply: 'Filed.' }],
  });
  const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
  const input: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'File the login bug.' },
  ];
  for (let turn = 0; turn < 5; turn += 1) {
    const response = await client.responses.create({
      model: 'gpt-5.5',
      input,
      tools: prepared.tools,
    });
    let called = false;
    for (const item of response.output) {
      if (item.type === 'tool_search_call' && item.execution === 'client') {
        input.push(item, await answerOpenAIToolSearch(prepared, item));
        called = true;
      } else if (item.type === 'function_call') {
        input.push(item, await dispatchOpenAIFunctionCall(prepared, item, dispatch));
        called = true;
      }
    }
    if (!called) break;
  }
  await learning.flush();
}

const denyIssues = () =>
  createDispatcher({
    guardrails: [
      {
        name: 'no-issues',
        check: (call) =>
          call.name === 'github.create_issue'
            ? { allow: false, reason: 'issues are frozen' }
            : { allow: true },
      },
    ],
    execute: () => ({ ok: true }),
  });

describe('learning from use in the providers client modes', () => {
  it('Anthropic: a search then a successful call records the pair; a later session ranks the tool first', async () => {
    const learner = createSearchLearner();
    expect((await anthropicRanking(learner))[0]).toBe('github_list_pull_requests');
    const runtime = createToolRuntime();
    await anthropicTurn(createLearningSession({ learner }), runtime.dispatch);
    expect(runtime.issues).toHaveLength(1);
    expect(learner.stats.recorded).toBe(1);
    const learned = await learner.export();
    expect(JSON.stringify(learned)).not.toContain(QUERY); // terms, never the text
    expect([...(await learner.learnedTerms()).keys()]).toEqual(['github.create_issue']);
    expect((await anthropicRanking(learner))[0]).toBe('github_create_issue');
    // Another profile's ranking is what it was.
    expect((await anthropicRanking(learner, 'other'))[0]).toBe('github_list_pull_requests');
  });

  it('Anthropic: a denied call never counts', async () => {
    const learner = createSearchLearner();
    await anthropicTurn(createLearningSession({ learner }), denyIssues());
    expect(learner.stats.recorded).toBe(0);
    expect((await learner.learnedTerms()).size).toBe(0);
    expect((await anthropicRanking(learner))[0]).toBe('github_list_pull_requests');
  });

  it('OpenAI: a search then a successful call records the pair; a later session ranks the tool first', async () => {
    const learner = createSearchLearner();
    const runtime = createToolRuntime();
    await openAITurn(createLearningSession({ learner }), runtime.dispatch);
    expect(runtime.issues).toHaveLength(1);
    expect(learner.stats.recorded).toBe(1);
    expect((await anthropicRanking(learner))[0]).toBe('github_create_issue');
  });

  it('OpenAI: a call whose result is an MCP error never counts', async () => {
    const learner = createSearchLearner();
    const failing = createDispatcher({
      execute: () => ({ isError: true, content: [{ type: 'text', text: 'rate limited' }] }),
    });
    await openAITurn(createLearningSession({ learner }), failing);
    expect(learner.stats.recorded).toBe(0);
  });

  it('a call of a tool no recent search returned records nothing; an own loop reports calls with recordCall', async () => {
    const learner = createSearchLearner();
    const learning = createLearningSession({ learner, window: 1 });
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
      learning,
    });
    expect(prepared.learning).toBe(learning);
    await answerAnthropicToolSearch(prepared, {
      id: 'toolu_1',
      name: 'tool_search',
      input: { query: QUERY },
    });
    learning.recordCall('slack_post_message', true); // not a hit: ages the search (window 1)
    learning.recordCall('github.create_issue', true); // too late
    await learning.flush();
    expect(learner.stats.recorded).toBe(0);
    await answerAnthropicToolSearch(prepared, {
      id: 'toolu_2',
      name: 'tool_search',
      input: { query: QUERY },
    });
    learning.recordCall('github.create_issue', true);
    await learning.flush();
    expect(learner.stats.recorded).toBe(1);
  });

  it('bridge mode: the bridge ranks with the session and records its calls', async () => {
    const learner = createSearchLearner();
    const runtime = createToolRuntime();
    const learning = createLearningSession({ learner });
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'bridge',
      config: { enabled: 'on' },
      bridge: assembleTools,
      learning,
    });
    const bridge = prepared.bridge;
    if (bridge === undefined) throw new Error('expected the bridge assembly');
    expect(bridge.learning).toBe(learning);
    const dispatch = (call: Parameters<typeof runtime.dispatch>[0]) => runtime.dispatch(call);
    await handleBridgeCall(
      bridge,
      { id: 'c1', name: 'tool_search', arguments: { query: QUERY } },
      dispatch,
    );
    await handleBridgeCall(
      bridge,
      {
        id: 'c2',
        name: 'tool_call',
        arguments: { name: 'github.create_issue', arguments: ISSUE },
      },
      dispatch,
    );
    await learning.flush();
    expect(runtime.issues).toHaveLength(1);
    expect(learner.stats.recorded).toBe(1);
  });
});
