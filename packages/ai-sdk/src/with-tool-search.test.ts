// Whole loops of the AI SDK's own generateText and streamText, driven by its own mock
// model (ai/test), over 300 real MCP tools: search, load, call. Runs on ai 7 and ai 6.
import { type AuditRecord, createAuditHook, createToolPolicyGuardrail } from '@tool-search/hooks';
import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AgentTask, createAgentModel } from './__fixtures__/agent-model.js';
import { catalog, catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { realToolCalls } from './real-tool-calls.js';
import { withToolSearch } from './with-tool-search.js';

const postMessage: AgentTask = {
  query: 'post a message to a slack channel',
  arguments: { channel_id: 'C1', text: 'release is out' },
  style: 'tool_call',
};

function setup(options: Parameters<typeof withToolSearch>[1] = {}) {
  const executions: Execution[] = [];
  const audit: AuditRecord[] = [];
  const search = withToolSearch(catalogToolSet(executions), {
    contextWindow: 200_000,
    core: ['read_file'],
    hooks: [createAuditHook((record) => void audit.push(record))],
    ...options,
  });
  return { executions, audit, search };
}

async function run(task: AgentTask, search: ReturnType<typeof withToolSearch>) {
  const agent = createAgentModel(task);
  const result = await generateText({
    model: agent.model,
    tools: search.tools,
    prepareStep: search.prepareStep,
    experimental_repairToolCall: search.repairToolCall,
    stopWhen: stepCountIs(6),
    prompt: task.query,
  });
  return { result, steps: agent.steps };
}

describe('withToolSearch over 300 real tools (generateText)', () => {
  it('sends the bridge instead of the deferred schemas, then searches, loads and calls through tool_call', async () => {
    expect(catalog).toHaveLength(300);
    const { executions, audit, search } = setup();
    const { result, steps } = await run(postMessage, search);

    expect(steps[0]?.tools.sort()).toEqual([
      'read_file',
      'tool_call',
      'tool_describe',
      'tool_search',
    ]);
    expect(executions).toEqual([
      { name: 'slack_slack_post_message', input: postMessage.arguments, toolCallId: 'call-3' },
    ]);
    expect(audit.map(({ tool, via, status }) => ({ tool, via, status }))).toEqual([
      { tool: 'slack_slack_post_message', via: 'bridge', status: 'ok' },
    ]);
    expect(result.text).toContain('"ran":"slack_slack_post_message"');
    // An activity view shows the real tool behind tool_call.
    const calls = result.steps.flatMap((step) => realToolCalls(step.toolCalls));
    expect(calls.map(({ toolName, via }) => `${via}:${toolName}`)).toEqual([
      'direct:tool_search',
      'direct:tool_describe',
      'bridge:slack_slack_post_message',
    ]);
    expect(calls[2]?.input).toEqual(postMessage.arguments);
  });

  it('offers a tool loaded with tool_describe from the next step on, and its call reports the real tool', async () => {
    const { executions, audit, search } = setup();
    const { result, steps } = await run({ ...postMessage, style: 'after-describe' }, search);

    expect(steps[1]?.tools).not.toContain('slack_slack_post_message');
    expect(steps[2]?.tools).toContain('slack_slack_post_message');
    const calls = result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
    expect(calls).toEqual(['tool_search', 'tool_describe', 'slack_slack_post_message']);
    expect(executions.map((execution) => execution.name)).toEqual(['slack_slack_post_message']);
    expect(audit[0]).toMatchObject({ tool: 'slack_slack_post_message', via: 'direct' });
  });

  it('routes a direct call of a deferred tool, which the AI SDK alone rejects, through the dispatcher', async () => {
    const { executions, audit, search } = setup();
    const task: AgentTask = { ...postMessage, style: 'direct' };
    const { result } = await run(task, search);
    expect(executions.map((execution) => execution.name)).toEqual(['slack_slack_post_message']);
    expect(audit.map(({ tool, via }) => ({ tool, via }))).toEqual([
      { tool: 'slack_slack_post_message', via: 'direct' },
    ]);
    expect(result.text).toContain('"ran":"slack_slack_post_message"');

    // Without the repair the AI SDK refuses the call before any tool runs.
    const bare = createAgentModel(task);
    const without = await generateText({
      model: bare.model,
      tools: search.tools,
      prepareStep: search.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: task.query,
    });
    expect(JSON.stringify(without.steps.map((step) => step.content))).toContain('NoSuchTool');
    expect(executions).toHaveLength(1);
  });

  it('runs guardrails on the real name, whichever way the call came', async () => {
    for (const style of ['tool_call', 'direct', 'after-describe'] as const) {
      const { executions, audit, search } = setup({
        guardrails: [createToolPolicyGuardrail({ deny: ['slack_*'] })],
      });
      const { result } = await run({ ...postMessage, style }, search);
      expect(executions).toEqual([]);
      expect(audit).toMatchObject([{ tool: 'slack_slack_post_message', status: 'denied' }]);
      expect(result.text).toContain('denied');
    }
  });

  it('keeps the session in its scope: an out-of-scope tool is neither found nor callable', async () => {
    // Forced on: 26 github tools alone are below the threshold.
    const { executions, search } = setup({
      scope: { enabledToolsets: ['mcp-github'] },
      config: { enabled: 'on' },
    });
    const searched = await run(postMessage, search);
    expect(searched.result.text).not.toContain('slack_slack_post_message');
    expect(executions.every((execution) => execution.name.startsWith('github_'))).toBe(true);

    for (const style of ['direct', 'tool_call'] as const) {
      const forced = await run({ ...postMessage, style, name: 'slack_slack_post_message' }, search);
      expect(executions.some((execution) => execution.name === 'slack_slack_post_message')).toBe(
        false,
      );
      expect(forced.result.text).toContain('not available in this session');
    }
  });

  it('honours the AI SDK tool approval of a deferred tool called through tool_call', async () => {
    const executions: Execution[] = [];
    const search = withToolSearch(
      catalogToolSet(executions, (name, value) =>
        name === 'slack_slack_post_message' ? { ...value, needsApproval: true } : value,
      ),
      { contextWindow: 200_000 },
    );
    const { result } = await run(postMessage, search);
    expect(executions).toEqual([]);
    const requests = result.steps
      .flatMap((step) => step.content)
      .filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0])).toContain('slack_slack_post_message');
  });

  it('sends every tool in scope and no bridge below the threshold', async () => {
    const { search } = setup({ config: { thresholdTokens: 10_000_000 } });
    const { steps } = await run({ ...postMessage, name: 'read_file', style: 'direct' }, search);
    expect(steps[0]?.tools).toHaveLength(301);
    expect(steps[0]?.tools).not.toContain('tool_search');
  });
});

describe('withToolSearch: its input', () => {
  it('refuses a tool set that already holds a bridge tool name, with a typed error', () => {
    const tools = { ...catalogToolSet(), tool_search: catalogToolSet()['read_file']! };
    expect(() => withToolSearch(tools)).toThrow(
      expect.objectContaining({ code: 'invalid_argument', data: { tool: 'tool_search' } }),
    );
  });
});

describe('withToolSearch (streamText)', () => {
  it('streams the loop, with the real tool in the tool-call part once it is loaded', async () => {
    const { executions, audit, search } = setup();
    const task: AgentTask = { ...postMessage, style: 'after-describe' };
    const agent = createAgentModel(task);
    const stream = streamText({
      model: agent.model,
      tools: search.tools,
      prepareStep: search.prepareStep,
      experimental_repairToolCall: search.repairToolCall,
      stopWhen: stepCountIs(6),
      prompt: task.query,
    });
    const calls: string[] = [];
    for await (const part of stream.fullStream) {
      if (part.type === 'tool-call') calls.push(part.toolName);
    }
    expect(calls).toEqual(['tool_search', 'tool_describe', 'slack_slack_post_message']);
    expect(await stream.text).toContain('"ran":"slack_slack_post_message"');
    expect(executions).toHaveLength(1);
    expect(audit[0]).toMatchObject({ tool: 'slack_slack_post_message', status: 'ok' });
  });
});
