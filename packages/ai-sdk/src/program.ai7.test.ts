// AI SDK 7: tool_program as a local tool caller (`experimental_toolCallers`), and AI SDK
// 7's `toolApproval` deciding the nested calls of a program.
import type { ProgramResult } from '@tool-search/code';
import { createProgramPolicy } from '@tool-search/code';
import type { ApprovalAdapter } from '@tool-search/hooks';
import { generateText, stepCountIs } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApprovalLog, approvalToolSet } from './__fixtures__/approval-tools.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { createScriptedModel } from './testing/index.js';
import { withToolSearch } from './with-tool-search.js';

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

const allowAll = createProgramPolicy({ allow: ['*'] });

function programTurn(source: string) {
  return createScriptedModel([{ tool: 'tool_program', input: { source } }, { text: 'ok' }]);
}

const outputOf = (result: { steps: { toolResults: { output: unknown }[] }[] }) =>
  result.steps[0]?.toolResults[0]?.output as ProgramResult;

describe('withToolSearch({ program }) on AI SDK 7: a local tool caller', () => {
  it('spread whole, runs the program as the caller AI SDK 7 binds: program-only tools reach it, tools kept from it do not', async () => {
    const executions: Execution[] = [];
    const search = withToolSearch(catalogToolSet(executions), {
      core: ['read_file', 'everything_echo', 'everything_get_sum'],
      config: { enabled: 'on' },
      program: { policy: allowAll },
    });
    closers.push(() => search.program!.close());
    expect(search.experimental_toolCallers?.['everything_echo']).toEqual([
      'AI_SDK_DIRECT_TOOL_CALL',
      'tool_program',
    ]);
    const model = programTurn(
      `const statuses = {};
       for (const [name, args] of [
         ['everything_get_sum', { a: 1, b: 2 }],
         ['read_file', { path: 'a.txt' }],
         ['github_get_issue', { owner: 'acme', repo: 'app', issue_number: 7 }],
       ]) {
         try { await tools.call(name, args); statuses[name] = 'ok'; }
         catch (error) { statuses[name] = error.status; }
       }
       return statuses;`,
    );
    const result = await generateText({
      model,
      ...search,
      // Yours on top of the setup's: a sum only through programs, read_file never.
      experimental_toolCallers: {
        ...search.experimental_toolCallers,
        everything_get_sum: ['tool_program'],
        read_file: ['AI_SDK_DIRECT_TOOL_CALL'],
      } as never,
      stopWhen: stepCountIs(3),
      prompt: 'go',
    });
    expect(outputOf(result).result).toEqual({
      everything_get_sum: 'ok',
      read_file: 'denied',
      github_get_issue: 'ok',
    });
    expect(executions.map((execution) => execution.name)).toEqual([
      'everything_get_sum',
      'github_get_issue',
    ]);
    const offered = (model.doGenerateCalls[0]?.tools ?? []).map((entry) => entry.name);
    expect(offered).toContain('read_file');
    expect(offered).toContain('tool_program');
    expect(offered).not.toContain('everything_get_sum');
  });

  it("applies AI SDK 7's toolApproval to each nested call: denied denies, user-approval asks the program's approval", async () => {
    const log: ApprovalLog = { asked: [], ran: [] };
    const asked: string[] = [];
    const denials: string[] = [];
    const person: ApprovalAdapter = {
      name: 'person',
      request: ({ call }) => {
        asked.push(call.name);
        return 'allow-once';
      },
    };
    const search = withToolSearch(approvalToolSet(log), {
      config: { enabled: 'on' },
      toolApproval: { delete_repo: 'denied', list_repos: 'user-approval' },
      program: { policy: allowAll, approval: person },
      hooks: [
        {
          name: 'denials',
          onSettled: ({ result }) => {
            if (result.status === 'denied') {
              denials.push(`${result.call.name} by ${result.by.kind}:${result.by.name}`);
            }
          },
        },
      ],
    });
    closers.push(() => search.program!.close());
    const result = await generateText({
      model: programTurn(
        `const out = [];
         for (const [name, args] of [['list_repos', { owner: 'acme' }], ['delete_repo', { repo: 'x' }]]) {
           try { await tools.call(name, args); out.push(name + ': ok'); }
           catch (error) { out.push(name + ': ' + error.status + ': ' + error.reason); }
         }
         return out;`,
      ),
      ...search,
      stopWhen: stepCountIs(3),
      prompt: 'go',
    });
    expect(outputOf(result).result).toEqual([
      'list_repos: ok',
      "delete_repo: denied: The call to 'delete_repo' was denied by its approval policy.",
    ]);
    expect(denials).toEqual(['delete_repo by guardrail:toolApproval']);
    expect(asked).toEqual(['list_repos']);
    expect(log.ran.map((entry) => entry.name)).toEqual(['list_repos']);
  });
});
