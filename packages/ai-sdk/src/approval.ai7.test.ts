// AI SDK 7's `toolApproval` through tool search (`search.toolApproval`): decided on the
// real calls that will run, batches included, with the arguments they run with.
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { type ApprovalLog, approvalToolSet, type SeenCall } from './__fixtures__/approval-tools.js';
import {
  answerApprovals,
  approvalRequests,
  createScriptedModel,
  type ScriptedCall,
} from './__fixtures__/scripted-model.js';
import type { ToolApprovalConfig } from './tool-approval.js';
import { withToolSearch } from './with-tool-search.js';

const prompt = 'do it';

async function run(
  calls: readonly ScriptedCall[],
  toolApproval: ToolApprovalConfig,
  answer?: boolean,
) {
  const log: ApprovalLog = { asked: [], ran: [] };
  const search = withToolSearch(approvalToolSet(log), {
    config: { enabled: 'on' },
    toolApproval,
  });
  const settings = {
    tools: search.tools,
    prepareStep: search.prepareStep,
    repairToolCall: search.repairToolCall,
    toolApproval: search.toolApproval,
    stopWhen: stepCountIs(3),
  } as const;
  const first = await generateText({
    ...settings,
    model: createScriptedModel(calls),
    prompt,
  } as Parameters<typeof generateText>[0]);
  const requests = approvalRequests(first);
  const ranBefore = [...log.ran];
  if (answer !== undefined && requests.length > 0) {
    await generateText({
      ...settings,
      model: createScriptedModel([]),
      messages: answerApprovals(prompt, first, answer),
    } as Parameters<typeof generateText>[0]);
  }
  return { first, requests, ranBefore, log };
}

const batch = (...items: { name: string; arguments: unknown }[]): ScriptedCall => ({
  toolName: 'tool_call',
  input: { calls: items },
});

describe('withToolSearch: toolApproval (ai 7) on the calls that run', () => {
  it('asks about a tool_call batch by the real name of any of its calls', async () => {
    const { requests, ranBefore } = await run(
      [
        batch(
          { name: 'list_repos', arguments: {} },
          { name: 'delete_repo', arguments: { repo: 'acme/site' } },
        ),
      ],
      { delete_repo: 'user-approval' },
    );
    expect(ranBefore).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it("falls back to the real tools' needsApproval for each call of a batch", async () => {
    const { requests, ranBefore } = await run(
      [batch({ name: 'delete_repo', arguments: { repo: 'acme/site' } })],
      {},
    );
    expect(ranBefore).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('denies a whole batch when one of its calls is denied, and says which', async () => {
    const { requests, log, first } = await run(
      [
        batch(
          { name: 'list_repos', arguments: {} },
          { name: 'delete_repo', arguments: { repo: 'acme/site' } },
        ),
      ],
      { delete_repo: { type: 'denied', reason: 'never delete' } },
    );
    // ai 7 records a denial by toolApproval as an automatic approval request.
    expect(requests.every((request) => (request as { isAutomatic?: boolean }).isAutomatic)).toBe(
      true,
    );
    expect(log.ran).toEqual([]);
    expect(JSON.stringify(first.steps[0]?.content)).toContain('delete_repo: never delete');
  });

  const transfer = { name: 'transfer', arguments: { amount: '5000', force: 'true' } };
  const repaired = { amount: 5000, force: true };
  const routes: [string, ScriptedCall][] = [
    ['a single tool_call', { toolName: 'tool_call', input: transfer }],
    ['a tool_call batch', batch(transfer)],
    ['a direct call of the deferred name', { toolName: 'transfer', input: transfer.arguments }],
  ];
  for (const [route, call] of routes) {
    it(`hands an entry the repaired arguments, which then run (${route})`, async () => {
      const seen: SeenCall[] = [];
      const { requests, ranBefore, log } = await run(
        [call],
        {
          transfer: (input: Record<string, unknown>) => {
            seen.push({ name: 'transfer', input });
            return (input['amount'] as number) > 100 ? 'user-approval' : 'not-applicable';
          },
        },
        true,
      );
      expect(ranBefore).toEqual([]);
      expect(requests).toHaveLength(1);
      expect(seen.length).toBeGreaterThan(0);
      for (const asked of seen) expect(asked.input).toEqual(repaired);
      expect(log.ran).toEqual([{ name: 'transfer', input: repaired }]);
    });

    it(`hands a function the real call with the repaired arguments (${route})`, async () => {
      const seen: { toolName: string; input: unknown }[] = [];
      const { requests, log } = await run(
        [call],
        ({ toolCall }) => {
          seen.push({ toolName: toolCall.toolName, input: toolCall.input });
          return 'user-approval';
        },
        true,
      );
      expect(requests).toHaveLength(1);
      expect(seen.length).toBeGreaterThan(0);
      for (const asked of seen) expect(asked).toEqual({ toolName: 'transfer', input: repaired });
      expect(log.ran).toEqual([{ name: 'transfer', input: repaired }]);
    });
  }
});
