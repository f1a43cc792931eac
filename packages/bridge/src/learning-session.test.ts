import type { ToolDefinition } from '@tool-search/core';
import {
  createLearningSession,
  createMemoryLearningStore,
  createSearchLearner,
} from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';

function tool(
  name: string,
  description: string,
  source: ToolDefinition['source'] = 'mcp',
): ToolDefinition {
  return { name, description, inputSchema: { type: 'object', properties: {} }, source };
}

const tools: ToolDefinition[] = [
  tool('read_file', 'Read a file from disk'),
  tool('send_mail', 'Send an email message to a recipient'),
  tool('create_issue', 'Create an issue in a GitHub repository'),
  tool('get_weather', 'Current weather for a city'),
  tool('shell', 'Run a shell command', 'core'),
];

type Outcome = 'ok' | 'denied' | 'error' | 'mcp-error';

function dispatcher(outcome: Outcome) {
  return async () => {
    if (outcome === 'denied') return { status: 'denied', reason: 'policy' };
    if (outcome === 'error') return { status: 'error', error: 'boom' };
    if (outcome === 'mcp-error') return { content: [], isError: true };
    return { status: 'ok', result: 'done' };
  };
}

function session(options: { token?: string; window?: number } = {}) {
  const learner = createSearchLearner();
  const learning = createLearningSession({ learner, profile: 'p', ...options });
  const assembly = assembleTools({ tools, config: { enabled: 'on' }, learning });
  const search = (query: string) =>
    handleBridgeCall(
      assembly,
      { name: 'tool_search', arguments: { query, limit: 5 } },
      dispatcher('ok'),
    );
  const call = (name: string, outcome: Outcome = 'ok') =>
    handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name, arguments: {} } },
      dispatcher(outcome),
    );
  const learned = async () => {
    await learning.flush();
    return learner.learnedTerms('p');
  };
  return { learner, learning, assembly, search, call, learned };
}

describe('createLearningSession', () => {
  it('records a search’s terms for a tool it returned and the session then called', async () => {
    const s = session();
    await s.search('email my boss');
    await s.call('send_mail');
    const learned = await s.learned();
    expect(Object.keys(learned.get('send_mail')!).sort()).toEqual(
      s.learner.analyze('email my boss').sort(),
    );
    // Recorded once per search and tool.
    await s.call('send_mail');
    expect((await s.learned()).get('send_mail')!['boss']).toBe(1);
  });

  it('records a batch call and a direct call of a deferred tool', async () => {
    const s = session();
    await s.search('create an issue in github');
    await handleBridgeCall(
      s.assembly,
      { name: 'tool_call', arguments: { calls: [{ name: 'create_issue', arguments: {} }] } },
      dispatcher('ok'),
    );
    await s.search('weather in paris');
    await handleBridgeCall(s.assembly, { name: 'get_weather', arguments: {} }, dispatcher('ok'));
    const learned = await s.learned();
    expect(learned.has('create_issue')).toBe(true);
    expect(learned.has('get_weather')).toBe(true);
  });

  it('never counts denied, failed or refused calls', async () => {
    const s = session();
    await s.search('email my boss');
    await s.call('send_mail', 'denied');
    await s.call('send_mail', 'error');
    await s.call('send_mail', 'mcp-error');
    await s.call('no_such_tool');
    expect((await s.learned()).size).toBe(0);
  });

  it('never counts a tool the search did not return, nor a tool the model sees', async () => {
    const s = session();
    await s.search('weather in paris');
    await s.call('read_file');
    await s.call('shell');
    expect((await s.learned()).size).toBe(0);
  });

  it('counts a call only within `window` calls of the search', async () => {
    const s = session({ window: 2 });
    await s.search('email my boss');
    await s.call('read_file', 'error');
    await s.call('read_file', 'error');
    await s.call('send_mail');
    expect((await s.learned()).size).toBe(0);
  });

  it('caps a token’s contribution, so one client cannot steer a profile', async () => {
    const learner = createSearchLearner({
      store: createMemoryLearningStore({ limits: { tokenCap: 1 } }),
    });
    for (let i = 0; i < 5; i++) {
      const learning = createLearningSession({ learner, profile: 'p', token: 'one-client' });
      const assembly = assembleTools({ tools, config: { enabled: 'on' }, learning });
      await handleBridgeCall(
        assembly,
        { name: 'tool_search', arguments: { query: 'email boss' } },
        dispatcher('ok'),
      );
      await handleBridgeCall(
        assembly,
        { name: 'tool_call', arguments: { name: 'send_mail', arguments: {} } },
        dispatcher('ok'),
      );
      await learning.flush();
    }
    expect((await learner.learnedTerms('p')).get('send_mail')).toEqual({ email: 1, boss: 1 });
  });

  it('ranks the next assembly’s searches with what was learned', async () => {
    const s = session();
    await s.search('frobnicate');
    const before = await s.search('frobnicate the widget');
    expect((before as { matches: unknown[] }).matches).toEqual([]);
    // A session that found the tool another way (its words) and called it.
    await s.search('send an email');
    await s.call('send_mail');
    const learning = s.learning;
    await s.learner.record({ query: 'frobnicate the widget', tool: 'send_mail', profile: 'p' });
    const next = assembleTools({ tools, config: { enabled: 'on' }, previous: s.assembly });
    expect(next.learning).toBe(learning);
    const after = await handleBridgeCall(
      next,
      { name: 'tool_search', arguments: { query: 'frobnicate the widget' } },
      dispatcher('ok'),
    );
    expect((after as { matches: { name: string }[] }).matches[0]?.name).toBe('send_mail');
  });

  it('refuses a missing learner and a window that is not a positive integer', () => {
    expect(() => createLearningSession({} as never)).toThrow(/createSearchLearner/);
    expect(() => createLearningSession({ learner: createSearchLearner(), window: 0 })).toThrow(
      /window/,
    );
  });
});
