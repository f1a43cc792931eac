import type { BaseMessage } from '@langchain/core/messages';
import { ToolMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createSearchLearner } from '@tool-search/core';
import type { AuditRecord } from '@tool-search/hooks';
import { createAuditHook, createToolPolicyGuardrail } from '@tool-search/hooks';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { fixtureTools, type Ran } from './__fixtures__/tools.js';
import { createScriptedChatModel } from './testing/index.js';
import { withToolSearch } from './with-tool-search.js';

const quiet = { warn() {}, info() {} };

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function parsed(message: ToolMessage | undefined): Record<string, unknown> {
  return JSON.parse(String(message?.content)) as Record<string, unknown>;
}

describe('withToolSearch in a LangGraph createReactAgent', () => {
  it('searches, describes and calls a deferred tool, which runs once with the final arguments', async () => {
    const ran: Ran = [];
    const audit: AuditRecord[] = [];
    const search = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      hooks: [createAuditHook((record) => void audit.push(record))],
      logger: quiet,
    });
    expect(search.decision).toMatchObject({ active: true, reason: 'forced-on' });
    const model = createScriptedChatModel([
      { calls: [{ name: 'tool_search', args: { query: 'weather forecast' } }] },
      { calls: [{ name: 'tool_describe', args: { name: 'get_weather' } }] },
      {
        calls: [
          {
            name: 'tool_call',
            args: { name: 'get_weather', arguments: { city: 'Oslo', days: '3' } },
          },
        ],
      },
      { text: 'It is cold in Oslo.' },
    ]);
    const agent = createReactAgent({ llm: model, tools: search.tools });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    });

    // The model was shown the visible tool and the bridge, not the deferred tools.
    expect(model.bound[0]).toEqual(['read_file', 'tool_search', 'tool_describe', 'tool_call']);
    const [searched, described, called] = toolMessages(result.messages);
    const matches = parsed(searched)['matches'] as { name: string }[];
    expect(matches[0]?.name).toBe('get_weather');
    expect(parsed(described)).toMatchObject({
      name: 'get_weather',
      parameters: { required: ['city'] },
    });
    // The bridge repaired "3" to 3 by the schema: the tool ran with the final arguments.
    expect(ran).toEqual([{ name: 'get_weather', args: { city: 'Oslo', days: 3 } }]);
    expect(String(called?.content)).toContain('"tool":"get_weather"');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ tool: 'get_weather', via: 'bridge', status: 'ok' });
  });

  it('denies through a guardrail on the real name, whether called through tool_call or directly', async () => {
    const ran: Ran = [];
    const search = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      guardrails: [createToolPolicyGuardrail({ deny: ['delete_*', 'read_file'] })],
      logger: quiet,
    });
    const model = createScriptedChatModel([
      {
        calls: [
          { name: 'tool_call', args: { name: 'delete_repo', arguments: { repo: 'web' } } },
          { name: 'read_file', args: { path: 'README.md' } },
        ],
      },
      { text: 'I may not.' },
    ]);
    const agent = createReactAgent({ llm: model, tools: search.tools });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Delete web' }] });
    const [bridged, direct] = toolMessages(result.messages);
    expect(parsed(bridged)).toMatchObject({ denied_by: "guardrail 'tool-policy'" });
    expect(direct?.status).toBe('error');
    expect(parsed(direct)).toMatchObject({ denied_by: "guardrail 'tool-policy'" });
    expect(ran).toEqual([]);
  });

  it('records a search-then-call pair with learning, and nothing for a denied call', async () => {
    const run = async (query: string, extra: Parameters<typeof withToolSearch>[1] = {}) => {
      const learner = createSearchLearner();
      const ran: Ran = [];
      const search = withToolSearch(fixtureTools(ran, 30), {
        core: ['read_file'],
        config: { enabled: 'on' },
        learning: { learner, profile: 'team' },
        logger: quiet,
        ...extra,
      });
      const model = createScriptedChatModel([
        { calls: [{ name: 'tool_search', args: { query } }] },
        {
          calls: [
            {
              name: 'tool_call',
              args: { name: 'create_issue', arguments: { repo: 'web', title: 'Bug' } },
            },
          ],
        },
        { text: 'Filed.' },
      ]);
      await createReactAgent({ llm: model, tools: search.tools }).invoke({
        messages: [{ role: 'user', content: 'File a bug' }],
      });
      // Let the recording reach the store.
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { learner, ran };
    };
    const query = 'create a github issue';
    const learned = await run(query);
    expect(learned.ran).toEqual([{ name: 'create_issue', args: { repo: 'web', title: 'Bug' } }]);
    const terms = (await learned.learner.learnedTerms('team')).get('create_issue');
    expect(Object.keys(terms ?? {}).sort()).toEqual(learned.learner.analyze(query).sort());

    const denied = await run(query, {
      guardrails: [createToolPolicyGuardrail({ deny: ['create_*'] })],
    });
    expect(denied.ran).toEqual([]);
    expect((await denied.learner.learnedTerms('team')).size).toBe(0);
  });
});

describe('the activation decision', () => {
  it('below the threshold: every tool goes to the model, a warning names the reason, and a bridge tool called anyway says why', async () => {
    const warnings: string[] = [];
    const ran: Ran = [];
    const search = withToolSearch(fixtureTools(ran, 3), {
      core: ['read_file'],
      contextWindow: 200_000,
      logger: { warn: (message) => void warnings.push(message) },
    });
    expect(search.decision).toMatchObject({ active: false, reason: 'below-threshold' });
    expect(search.tools.map((tool) => tool.name)).not.toContain('tool_search');
    expect(search.tools).toHaveLength(7);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('inactive');
    expect(warnings[0]).toContain(`threshold of ${search.decision.thresholdTokens}`);

    // langchain's createAgent with the setup's middleware: the model is shown the tools
    // alone, and a bridge tool it calls anyway is answered with the reason.
    const model = createScriptedChatModel([
      { calls: [{ name: 'tool_search', args: { query: 'weather' } }] },
      { calls: [{ name: 'get_weather', args: { city: 'Oslo' } }] },
      { text: 'ok' },
    ]);
    const agent = createAgent({ model, tools: search.tools, middleware: [search.middleware] });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Weather?' }] });
    expect(model.bound[0]).toEqual(search.tools.map((tool) => tool.name));
    const [refused, called] = toolMessages(result.messages);
    expect(parsed(refused)).toMatchObject({
      code: 'tool_search_inactive',
      reason: 'below-threshold',
    });
    expect(String(parsed(refused)['error'])).toContain('below the threshold');
    expect(String(called?.content)).toContain('"tool":"get_weather"');
    expect(ran).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
  });

  it('above the threshold: the deferrable tools are deferred and the decision is logged once as information', () => {
    const infos: string[] = [];
    const search = withToolSearch(fixtureTools([], 80), {
      core: ['read_file'],
      contextWindow: 8_000,
      logger: { warn: () => {}, info: (message) => void infos.push(message) },
    });
    expect(search.decision).toMatchObject({ active: true, reason: 'above-threshold' });
    expect(search.tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect(search.fallbackTools.map((tool) => tool.name)).toContain('get_weather');
    expect(infos).toEqual([expect.stringContaining('83 tools are deferred')]);
  });

  it('says why when it is off by config or nothing is deferrable, as information, and the fallback bridge tools name it', async () => {
    const infos: string[] = [];
    const warnings: string[] = [];
    const logger = {
      warn: (message: string) => void warnings.push(message),
      info: (message: string) => void infos.push(message),
    };
    const off = withToolSearch(fixtureTools([], 80), { config: { enabled: 'off' }, logger });
    const core = withToolSearch(fixtureTools([], 3), {
      source: 'core',
      config: { enabled: 'on' },
      logger,
    });
    expect(off.decision.reason).toBe('disabled');
    expect(core.decision.reason).toBe('nothing-deferrable');
    expect(warnings).toEqual([]);
    expect(infos).toEqual([
      expect.stringContaining("disabled by the config (enabled: 'off')"),
      expect.stringContaining('no tool is deferrable'),
    ]);
    const bridge = off.fallbackTools.find((tool) => tool.name === 'tool_call');
    expect(JSON.stringify(await bridge?.invoke({ name: 'get_weather', arguments: {} }))).toContain(
      'disabled by the config',
    );
  });
});
