// Learning from use through the AI SDK adapter: whole generateText loops of the AI SDK's
// mock model over 300 real MCP tools; a successful call of a tool a search returned
// records a pair, whether it went through tool_call or directly after tool_describe.
import {
  createMemoryLearningStore,
  createSearchLearner,
  type LearningStore,
  type SearchLearner,
} from '@tool-search/core';
import { createToolPolicyGuardrail } from '@tool-search/hooks';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AgentTask, createAgentModel } from './__fixtures__/agent-model.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { withToolSearch } from './with-tool-search.js';

const postMessage: AgentTask = {
  query: 'post a message to a slack channel',
  arguments: { channel_id: 'C1', text: 'release is out' },
  style: 'tool_call',
};
const TOOL = 'slack_slack_post_message';

async function run(
  task: AgentTask,
  learner: SearchLearner,
  extra: Parameters<typeof withToolSearch>[1] = {},
) {
  const executions: Execution[] = [];
  const search = withToolSearch(catalogToolSet(executions), {
    contextWindow: 200_000,
    core: ['read_file'],
    learning: { learner, profile: 'team' },
    ...extra,
  });
  const agent = createAgentModel(task);
  await generateText({
    model: agent.model,
    tools: search.tools,
    prepareStep: search.prepareStep,
    experimental_repairToolCall: search.repairToolCall,
    stopWhen: stepCountIs(6),
    prompt: task.query,
  });
  // The setup's session: its writes have reached the store once flushed.
  expect(search.learning).toBeDefined();
  await search.learning?.flush();
  return executions;
}

describe('withToolSearch with learning', () => {
  it('records a search and the tool_call of a tool it returned', async () => {
    const learner = createSearchLearner();
    expect(await run(postMessage, learner)).toHaveLength(1);
    const terms = (await learner.learnedTerms('team')).get(TOOL);
    expect(Object.keys(terms ?? {}).sort()).toEqual(learner.analyze(postMessage.query).sort());
  });

  it('records a call made directly after tool_describe', async () => {
    const learner = createSearchLearner();
    await run({ ...postMessage, style: 'after-describe' }, learner);
    expect((await learner.learnedTerms('team')).has(TOOL)).toBe(true);
  });

  it('records nothing for a denied call', async () => {
    const learner = createSearchLearner();
    const executions = await run(postMessage, learner, {
      guardrails: [createToolPolicyGuardrail({ deny: ['slack_*'] })],
    });
    expect(executions).toHaveLength(0);
    expect((await learner.learnedTerms('team')).size).toBe(0);
  });

  it("exposes the conversation's session, whose flush waits for a store that writes later", async () => {
    const memory = createMemoryLearningStore();
    // A store whose writes land a few milliseconds after they are made (as Redis's do).
    const slow: LearningStore = Object.assign(Object.create(memory) as LearningStore, {
      add: (entry: Parameters<LearningStore['add']>[0]) =>
        new Promise<boolean>((resolve) => setTimeout(() => resolve(memory.add(entry)), 20)),
    });
    const learner = createSearchLearner({ store: slow });
    await run(postMessage, learner);
    expect((await learner.learnedTerms('team')).has(TOOL)).toBe(true);
    const without = withToolSearch(catalogToolSet(), { logger: { warn: () => {} } });
    expect(without.learning).toBeUndefined();
  });
});
