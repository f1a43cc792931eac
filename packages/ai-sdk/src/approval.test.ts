// The AI SDK's own tool approval (`needsApproval`) through tool search: asked about the
// calls that will run, with the arguments they will run with. Runs on ai 7 and ai 6.
import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { type ApprovalLog, approvalToolSet } from './__fixtures__/approval-tools.js';
import {
  answerApprovals,
  approvalRequests,
  createScriptedModel,
  type ScriptedCall,
} from './__fixtures__/scripted-model.js';
import { withToolSearch } from './with-tool-search.js';

const prompt = 'do it';

async function run(calls: readonly ScriptedCall[], answer?: boolean) {
  const log: ApprovalLog = { asked: [], ran: [] };
  const search = withToolSearch(approvalToolSet(log), { config: { enabled: 'on' } });
  const settings = {
    tools: search.tools,
    prepareStep: search.prepareStep,
    experimental_repairToolCall: search.repairToolCall,
    stopWhen: stepCountIs(3),
  };
  const first = await generateText({ ...settings, model: createScriptedModel(calls), prompt });
  const requests = approvalRequests(first);
  const ranBefore = [...log.ran];
  const askedBefore = [...log.asked];
  if (answer !== undefined && requests.length > 0) {
    await generateText({
      ...settings,
      model: createScriptedModel([]),
      messages: answerApprovals(prompt, first, answer),
    });
  }
  return { first, requests, ranBefore, askedBefore, log, search };
}

const transfer = { name: 'transfer', arguments: { amount: '5000', force: 'true' } };
const repaired = { amount: 5000, force: true };

describe('withToolSearch: the AI SDK tool approval of a tool_call batch', () => {
  it('asks before a batch that holds a tool with needsApproval: true runs anything', async () => {
    const { requests, ranBefore } = await run([
      {
        toolName: 'tool_call',
        input: {
          calls: [
            { name: 'list_repos', arguments: {} },
            { name: 'delete_repo', arguments: { repo: 'acme/site' } },
          ],
        },
      },
    ]);
    expect(ranBefore).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.toolCall.toolName).toBe('tool_call');
  });

  it('runs the whole batch once approved, and nothing of it once denied', async () => {
    const calls = [
      {
        toolName: 'tool_call',
        input: {
          calls: [
            { name: 'list_repos', arguments: {} },
            { name: 'delete_repo', arguments: { repo: 'acme/site' } },
          ],
        },
      },
    ];
    const approved = await run(calls, true);
    expect(approved.log.ran.map((call) => call.name)).toEqual(['list_repos', 'delete_repo']);
    const denied = await run(calls, false);
    expect(denied.log.ran).toEqual([]);
  });

  it("counts in the bridge's telemetry the calls that ran, not the questions asked about them", async () => {
    const { log, search } = await run(
      [
        {
          toolName: 'tool_call',
          input: {
            calls: [{ name: 'delete_repo', arguments: { repo: 'acme/site' } }, transfer],
          },
        },
      ],
      true,
    );
    expect(log.ran).toHaveLength(2);
    const { telemetry } = await search.assemble([]);
    expect(telemetry).toMatchObject({ calls: 2, dispatched: 2, argumentsRepaired: 1 });
  });

  it('asks before a batch runs under streamText too', async () => {
    const log: ApprovalLog = { asked: [], ran: [] };
    const search = withToolSearch(approvalToolSet(log), { config: { enabled: 'on' } });
    const stream = streamText({
      model: createScriptedModel([
        { toolName: 'tool_call', input: { calls: [transfer, { name: 'list_repos' }] } },
      ]),
      tools: search.tools,
      prepareStep: search.prepareStep,
      experimental_repairToolCall: search.repairToolCall,
      stopWhen: stepCountIs(3),
      prompt,
    });
    const types: string[] = [];
    for await (const part of stream.fullStream) types.push(part.type);
    expect(types).toContain('tool-approval-request');
    expect(log.ran).toEqual([]);
    expect(log.asked).toEqual([{ name: 'transfer', input: repaired }]);
  });

  it('asks nothing for a batch whose tools need no approval', async () => {
    const { requests, log } = await run([
      {
        toolName: 'tool_call',
        input: { calls: [{ name: 'list_repos', arguments: { owner: 'acme' } }] },
      },
    ]);
    expect(requests).toEqual([]);
    expect(log.ran).toEqual([{ name: 'list_repos', input: { owner: 'acme' } }]);
  });
});

describe('withToolSearch: approval decides on the arguments that run', () => {
  const routes: [string, ScriptedCall][] = [
    ['a single tool_call', { toolName: 'tool_call', input: transfer }],
    ['a tool_call batch', { toolName: 'tool_call', input: { calls: [transfer] } }],
    ['a direct call of the deferred name', { toolName: 'transfer', input: transfer.arguments }],
  ];

  for (const [route, call] of routes) {
    it(`asks needsApproval about the repaired arguments, then runs those (${route})`, async () => {
      const { requests, ranBefore, askedBefore, log } = await run([call], true);
      expect(ranBefore).toEqual([]);
      expect(requests).toHaveLength(1);
      expect(askedBefore[0]).toEqual({ name: 'transfer', input: repaired });
      expect(log.asked.every((asked) => asked.name === 'transfer')).toBe(true);
      expect(log.asked.map((asked) => asked.input)).toContainEqual(repaired);
      expect(
        log.asked.every((asked) => JSON.stringify(asked.input) === JSON.stringify(repaired)),
      ).toBe(true);
      expect(log.ran).toEqual([{ name: 'transfer', input: repaired }]);
    });
  }

  it('runs what it asked about when the tool counts as loaded by the time it runs', async () => {
    // tool_describe in the same step: the question is asked on messages without its
    // result (transfer deferred), the approved call runs on messages with it (loaded).
    const { requests, ranBefore, askedBefore, log } = await run(
      [
        { toolName: 'tool_describe', input: { name: 'transfer' } },
        { toolName: 'tool_call', input: transfer },
      ],
      true,
    );
    expect(ranBefore).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(askedBefore).toEqual([{ name: 'transfer', input: repaired }]);
    for (const asked of log.asked) expect(asked.input).toEqual(repaired);
    expect(log.ran).toEqual([{ name: 'transfer', input: repaired }]);
  });

  it('asks nothing about a call the bridge refuses, and runs nothing', async () => {
    const { requests, log, first } = await run([
      { toolName: 'tool_call', input: { name: 'transfer', arguments: { amount: 'lots' } } },
    ]);
    expect(requests).toEqual([]);
    expect(log.asked).toEqual([]);
    expect(log.ran).toEqual([]);
    expect(JSON.stringify(first.steps[0]?.content)).toContain('was not invoked');
  });

  it('lets a small repaired amount run without asking', async () => {
    const { requests, log } = await run([
      { toolName: 'tool_call', input: { name: 'transfer', arguments: { amount: '50' } } },
    ]);
    expect(requests).toEqual([]);
    expect(log.asked).toEqual([{ name: 'transfer', input: { amount: 50 } }]);
    expect(log.ran).toEqual([{ name: 'transfer', input: { amount: 50 } }]);
  });
});
