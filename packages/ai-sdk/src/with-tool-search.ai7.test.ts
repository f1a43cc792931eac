// AI SDK 7's own approval map (`generateText({ toolApproval })`) through the bridge.
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { createAgentModel } from './__fixtures__/agent-model.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { withToolSearch } from './with-tool-search.js';

const task = {
  query: 'post a message to a slack channel',
  arguments: { channel_id: 'C1', text: 'release is out' },
  style: 'tool_call' as const,
};

async function run(approval: 'wrapped' | 'raw', map: Record<string, unknown>) {
  const executions: Execution[] = [];
  const search = withToolSearch(catalogToolSet(executions), {
    contextWindow: 200_000,
    toolApproval: map,
  });
  const agent = createAgentModel(task);
  const result = await generateText({
    model: agent.model,
    tools: search.tools,
    prepareStep: search.prepareStep,
    repairToolCall: search.repairToolCall,
    toolApproval: approval === 'wrapped' ? search.toolApproval : map,
    stopWhen: stepCountIs(6),
    prompt: task.query,
  } as Parameters<typeof generateText>[0]);
  const parts = result.steps.flatMap((step) => step.content);
  return { executions, parts, result };
}

describe('withToolSearch: toolApproval on ai 7', () => {
  it('asks for approval of a deferred tool called through tool_call, by its real name', async () => {
    const { executions, parts } = await run('wrapped', {
      slack_slack_post_message: 'user-approval',
    });
    expect(executions).toEqual([]);
    const requests = parts.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0])).toContain('slack_slack_post_message');
  });

  it('denies by the real name, and lets other tools run', async () => {
    const denied = await run('wrapped', { slack_slack_post_message: 'denied' });
    expect(denied.executions).toEqual([]);
    const allowed = await run('wrapped', { github_create_issue: 'denied' });
    expect(allowed.executions.map((execution) => execution.name)).toEqual([
      'slack_slack_post_message',
    ]);
  });

  it('is needed: the raw map, keyed by the real name, never sees a call through tool_call', async () => {
    const { executions } = await run('raw', { slack_slack_post_message: 'user-approval' });
    expect(executions.map((execution) => execution.name)).toEqual(['slack_slack_post_message']);
  });
});
