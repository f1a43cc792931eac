// How withToolSearch meets the rest of a generateText call: the caller's own prepareStep
// and activeTools, a forgotten prepareStep, the setup spread whole, and what a search hit
// looks like. Runs on ai 7 and ai 6, with the scripted model users get from ./testing.
import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { shortDescription } from './search-answer.js';
import { createScriptedModel } from './testing/index.js';
import { withToolSearch } from './with-tool-search.js';

function recorder() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => void warnings.push(message) } };
}

const sentTools = (model: ReturnType<typeof createScriptedModel>) =>
  model.doGenerateCalls.map((call) => (call.tools ?? []).map((entry) => entry.name).sort());

describe('withToolSearch with your own prepareStep and activeTools', () => {
  it('runs your prepareStep every step and merges: its settings pass, its activeTools narrow the visible tools', async () => {
    const executions: Execution[] = [];
    const tools = {
      ...catalogToolSet(executions),
      get_time: tool({
        description: 'The time now.',
        inputSchema: z.object({}),
        execute: async () => '12:00',
      }),
    };
    const seenSteps: number[] = [];
    const search = withToolSearch(tools, {
      core: ['read_file', 'get_time'],
      config: { enabled: 'on' },
      prepareStep: ({ stepNumber }) => {
        seenSteps.push(stepNumber ?? -1);
        return { activeTools: ['get_time'], toolChoice: 'auto' };
      },
    });
    const model = createScriptedModel([
      { tool: 'tool_search', input: { query: 'post a slack message' } },
      { text: 'ok' },
    ]);
    const result = await generateText({ model, ...search, stopWhen: stepCountIs(4), prompt: 'hi' });
    expect(seenSteps).toEqual([0, 1]);
    // read_file is visible but not allowed by your list; the bridge stays.
    expect(sentTools(model)[0]).toEqual(['get_time', 'tool_call', 'tool_describe', 'tool_search']);
    expect(result.text).toBe('ok');
  });

  it('keeps tools outside the activeTools option out of the request and out of search', async () => {
    const search = withToolSearch(catalogToolSet(), {
      core: ['read_file'],
      config: { enabled: 'on' },
      activeTools: ['read_file', 'slack_slack_post_message'],
    });
    const model = createScriptedModel([
      { tool: 'tool_search', input: { query: 'github issue' } },
      { text: 'ok' },
    ]);
    const result = await generateText({ model, ...search, stopWhen: stepCountIs(3), prompt: 'hi' });
    const answer = result.steps[0]?.toolResults[0]?.output as { total_available: number };
    expect(answer.total_available).toBe(1);
  });
});

describe('withToolSearch wired wrongly or loosely', () => {
  it('warns once through the logger when a tool runs but prepareStep never did', async () => {
    const { warnings, logger } = recorder();
    const search = withToolSearch(catalogToolSet(), { core: ['read_file'], logger });
    const model = createScriptedModel([
      { tool: 'read_file', input: { path: 'a' } },
      { tool: 'read_file', input: { path: 'b' } },
      { text: 'ok' },
    ]);
    await generateText({ model, tools: search.tools, stopWhen: stepCountIs(4), prompt: 'hi' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/prepareStep never did/);
    // All 301 tools and the bridge went out: what the warning is about.
    expect(sentTools(model)[0]).toHaveLength(304);

    const wired = recorder();
    const good = withToolSearch(catalogToolSet(), { core: ['read_file'], logger: wired.logger });
    await generateText({
      model: createScriptedModel([{ tool: 'read_file', input: { path: 'a' } }, { text: 'ok' }]),
      ...good,
      stopWhen: stepCountIs(3),
      prompt: 'hi',
    });
    expect(wired.warnings).toEqual([]);
  });

  it('spread whole into generateText, routes a direct call of a deferred tool (the repair under both names)', async () => {
    const executions: Execution[] = [];
    const search = withToolSearch(catalogToolSet(executions), {
      core: ['read_file'],
      config: { enabled: 'on' },
    });
    expect(search.experimental_repairToolCall).toBe(search.repairToolCall);
    const model = createScriptedModel([
      { tool: 'slack_slack_post_message', input: { channel_id: 'C1', text: 'hi' } },
      { text: 'ok' },
    ]);
    await generateText({ model, ...search, stopWhen: stepCountIs(3), prompt: 'hi' });
    expect(executions.map((execution) => execution.name)).toEqual(['slack_slack_post_message']);
  });
});

describe('tool_search hits of AI SDK tools', () => {
  it('carry a name, one short line and the toolset, not source noise or 400 characters', async () => {
    const long = `Create a ticket in the tracker. ${'It does many more things. '.repeat(30)}`;
    const tools = {
      ...catalogToolSet(),
      create_ticket: tool({
        description: long,
        inputSchema: z.object({ title: z.string() }),
        execute: async () => 'ok',
      }),
    };
    const search = withToolSearch(tools, { core: ['read_file'], config: { enabled: 'on' } });
    const model = createScriptedModel([
      { tool: 'tool_search', input: { query: 'create a ticket in the tracker' } },
      { text: 'ok' },
    ]);
    const result = await generateText({ model, ...search, stopWhen: stepCountIs(3), prompt: 'hi' });
    const answer = result.steps[0]?.toolResults[0]?.output as {
      matches: Record<string, unknown>[];
    };
    const ticket = answer.matches.find((match) => match['name'] === 'create_ticket');
    expect(ticket).toEqual({
      name: 'create_ticket',
      description: 'Create a ticket in the tracker.',
    });
    for (const match of answer.matches) {
      expect(String(match['description']).length).toBeLessThanOrEqual(160);
      expect(match).not.toHaveProperty('source');
      expect(match).not.toHaveProperty('source_name');
    }
    const mcp = answer.matches.find((match) => match['name'] !== 'create_ticket');
    expect(mcp?.['toolset']).toMatch(/^mcp-/);
    expect(shortDescription('x'.repeat(400))).toHaveLength(160);
  });
});

describe('withToolSearch holds one session', () => {
  it('keeps one streak of searches across the assemblies a tool_describe load makes', async () => {
    const search = withToolSearch(catalogToolSet(), {
      core: ['read_file'],
      config: { enabled: 'on' },
    });
    const queries = [
      'post a slack message',
      'github issue',
      'send an email',
      'calendar event',
      'jira ticket',
    ];
    const model = createScriptedModel([
      { tool: 'tool_search', input: { query: queries[0] } },
      { tool: 'tool_describe', input: { name: 'slack_slack_post_message' } },
      ...queries.slice(1).map((query) => ({ tool: 'tool_search', input: { query } })),
      { text: 'ok' },
    ]);
    const result = await generateText({ model, ...search, stopWhen: stepCountIs(8), prompt: 'hi' });
    // After the load the searches run on another assembly (another memo entry).
    expect(sentTools(model)[2]).toContain('slack_slack_post_message');
    const answers = result.steps.map((step) => step.toolResults[0]?.output as { nudge?: unknown });
    // The fifth search in a row without a call is nudged: the streak spans both assemblies.
    expect(answers[5]?.nudge).toBeDefined();
    expect(answers[4]?.nudge).toBeUndefined();
  });
});
