// withToolSearch({ program }): tool_program as an AI SDK tool, in real generateText and
// streamText loops (ai 7 and ai 6) driven by the scripted model users get from ./testing.
// Every nested call goes through the setup's resolution and dispatcher with via 'program',
// meeting the program policy, the hooks and the AI SDK's own approval policy.
import type { ProgramResult } from '@tool-search/code';
import { createProgramPolicy } from '@tool-search/code';
import type { ApprovalAdapter, ApprovalRequest, ToolCallHook } from '@tool-search/hooks';
import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApprovalLog, approvalToolSet } from './__fixtures__/approval-tools.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { createScriptedModel } from './testing/index.js';
import { type WithToolSearchOptions, withToolSearch } from './with-tool-search.js';

interface Seen {
  name: string;
  arguments: unknown;
  via: string | undefined;
  programId: string | undefined;
  toolCallId: string | undefined;
}

function seeing(seen: Seen[]): ToolCallHook<{ toolCallId: string }> {
  return {
    name: 'seen',
    beforeCall: (call, ctx) => {
      seen.push({
        name: call.name,
        arguments: call.arguments,
        via: ctx.via,
        programId: ctx.programId,
        toolCallId: ctx.toolCallId,
      });
    },
  };
}

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

function setup(tools: ToolSet, options: WithToolSearchOptions) {
  const search = withToolSearch(tools, options);
  if (search.program) closers.push(() => search.program!.close());
  return search;
}

/** Runs one tool_program call in a real generateText loop; answers its output. */
async function runProgram(search: ReturnType<typeof withToolSearch>, source: unknown) {
  const model = createScriptedModel([{ tool: 'tool_program', input: { source } }, { text: 'ok' }]);
  const result = await generateText({ model, ...search, stopWhen: stepCountIs(3), prompt: 'go' });
  const output = result.steps[0]?.toolResults[0]?.output as ProgramResult | undefined;
  return { output: output!, model };
}

const allowAll = createProgramPolicy({ allow: ['*'] });

/** The catalog's tools with read_file core, the bridge on, and a hook that sees every call. */
function catalogSetup(options: WithToolSearchOptions) {
  const executions: Execution[] = [];
  const seen: Seen[] = [];
  const search = setup(catalogToolSet(executions), {
    core: ['read_file'],
    config: { enabled: 'on' },
    ...options,
    hooks: [seeing(seen)],
  });
  return { search, executions, seen };
}

describe('withToolSearch({ program }): tool_program in a generateText loop', () => {
  it('runs a program that searches, then calls what it found, every call on the real tool through the dispatcher with via program', async () => {
    const { search, executions, seen } = catalogSetup({
      program: { policy: allowAll },
    });
    const { output, model } = await runProgram(
      search,
      `const hits = await tools.search('create an issue in a github repository');
       const name = hits.map((hit) => hit.name).find((found) => found === 'github_create_issue');
       const made = await tools.call(name, { owner: 'acme', repo: 'app', title: 'Login fails' });
       return { name, made };`,
    );
    expect(output.status).toBe('completed');
    expect(output.result).toEqual({
      name: 'github_create_issue',
      made: {
        ran: 'github_create_issue',
        input: { owner: 'acme', repo: 'app', title: 'Login fails' },
      },
    });
    expect(executions).toEqual([
      {
        name: 'github_create_issue',
        input: { owner: 'acme', repo: 'app', title: 'Login fails' },
        toolCallId: 'call_1',
      },
    ]);
    expect(seen).toEqual([
      {
        name: 'github_create_issue',
        arguments: { owner: 'acme', repo: 'app', title: 'Login fails' },
        via: 'program',
        programId: output.programId,
        toolCallId: 'call_1',
      },
    ]);
    expect(output.calls).toEqual([{ name: 'github_create_issue', status: 'ok' }]);
    // The model was offered tool_program beside the bridge tools.
    const offered = (model.doGenerateCalls[0]?.tools ?? []).map((entry) => entry.name);
    expect(offered).toEqual(
      expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call', 'tool_program']),
    );
  });

  it('fans out twenty calls with Promise.all and returns one line', async () => {
    const { search, executions, seen } = catalogSetup({
      program: true,
    });
    const { output } = await runProgram(
      search,
      `const sums = await Promise.all(
         Array.from({ length: 20 }, (_, i) => tools.everything_get_sum({ a: i, b: 1 })),
       );
       return sums.length + ' sums';`,
    );
    expect(output.status).toBe('completed');
    expect(output.result).toBe('20 sums');
    const inputs = executions.map((execution) => execution.input as { a: number; b: number });
    expect(inputs.sort((x, y) => x.a - y.a)).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ a: i, b: 1 })),
    );
    expect(new Set(seen.map((entry) => `${entry.via}:${entry.programId}`))).toEqual(
      new Set([`program:${output.programId}`]),
    );
  });

  it('streams too: a program through streamText runs its calls the same way', async () => {
    const { search, executions } = catalogSetup({
      program: true,
    });
    const model = createScriptedModel([
      {
        tool: 'tool_program',
        input: { source: "return await tools.call('everything_echo', { message: 'hi' })" },
      },
      { text: 'ok' },
    ]);
    const result = streamText({ model, ...search, stopWhen: stepCountIs(3), prompt: 'go' });
    const steps = await result.steps;
    const output = steps[0]?.toolResults[0]?.output as ProgramResult;
    expect(output.result).toEqual({ ran: 'everything_echo', input: { message: 'hi' } });
    expect(executions.map((execution) => execution.name)).toEqual(['everything_echo']);
  });
});

describe('withToolSearch({ program }): policy on nested calls', () => {
  it('refuses a tool that is not read-only under the default program policy, and shows programs only the tools it allows', async () => {
    const { search, executions } = catalogSetup({
      program: true,
    });
    const { output } = await runProgram(
      search,
      `const shown = (await tools.search('github issue')).map((hit) => hit.name);
       try {
         await tools.call('github_create_issue', { owner: 'acme', repo: 'app', title: 'x' });
         return 'ran';
       } catch (error) {
         return { shown, status: error.status, reason: error.reason };
       }`,
    );
    const answer = output.result as { shown: string[]; status: string; reason: string };
    expect(answer.status).toBe('denied');
    expect(answer.reason).toContain("programs may not call 'github_create_issue'");
    expect(answer.shown).not.toContain('github_create_issue');
    expect(executions).toEqual([]);
    expect(output.calls).toEqual([
      { name: 'github_create_issue', status: 'denied', reason: answer.reason },
    ]);
  });

  it("refuses a tool outside the session's scope, as tool_call does, and runs nothing", async () => {
    const { search, executions } = catalogSetup({
      scope: { enabledToolsets: ['mcp-github'] },
      program: { policy: allowAll },
    });
    const { output } = await runProgram(
      search,
      `try {
         await tools.call('slack_slack_post_message', { channel_id: 'C1', text: 'hi' });
         return 'ran';
       } catch (error) {
         return error.status + ': ' + error.reason;
       }`,
    );
    expect(output.result).toBe(
      "denied: 'slack_slack_post_message' is not available in this session. Use tool_search to find tools you can call.",
    );
    expect(executions).toEqual([]);
  });

  it('denies a call your guardrail refuses, inside the program as directly, and the hooks see the route', async () => {
    const guardrail = {
      name: 'no-main',
      check: (call: { arguments: Record<string, unknown> }) =>
        call.arguments['branch'] === 'main'
          ? { allow: false as const, reason: 'not on main' }
          : { allow: true as const },
    };
    const { search, executions, seen } = catalogSetup({
      guardrails: [guardrail],
      program: { policy: allowAll },
    });
    const args = { owner: 'acme', repo: 'app', branch: 'main' };
    const direct = await generateText({
      model: createScriptedModel([
        { tool: 'tool_call', input: { name: 'github_create_branch', arguments: args } },
        { text: 'ok' },
      ]),
      ...search,
      stopWhen: stepCountIs(3),
      prompt: 'go',
    });
    const { output } = await runProgram(
      search,
      `try { await tools.github_create_branch(${JSON.stringify(args)}); return 'ran'; }
       catch (error) { return { status: error.status, reason: error.reason }; }`,
    );
    expect(direct.steps[0]?.toolResults[0]?.output).toEqual({
      error: 'not on main',
      denied_by: "guardrail 'no-main'",
    });
    expect(output.result).toEqual({ status: 'denied', reason: 'not on main' });
    expect(executions).toEqual([]);
    expect(seen).toEqual([]);
  });
});

describe('withToolSearch({ program }): approvals inside a running program', () => {
  const approver = (decide: (request: ApprovalRequest) => 'allow-once' | 'deny') => {
    const asked: { name: string; arguments: unknown; via: string | undefined }[] = [];
    const adapter: ApprovalAdapter = {
      name: 'person',
      request: (request) => {
        asked.push({
          name: request.call.name,
          arguments: request.call.arguments,
          via: request.via,
        });
        return decide(request);
      },
    };
    return { adapter, asked };
  };

  it('asks about each call of a Promise.all on its own, on the arguments that run; a denial throws inside the program', async () => {
    const log: ApprovalLog = { asked: [], ran: [] };
    const person = approver((request) =>
      request.call.arguments['repo'] === 'old-site' ? 'allow-once' : 'deny',
    );
    const search = setup(approvalToolSet(log), {
      config: { enabled: 'on' },
      program: { policy: allowAll, approval: person.adapter },
    });
    const { output } = await runProgram(
      search,
      `const settled = await Promise.all(['old-site', 'payments'].map(async (repo) => {
         try { await tools.delete_repo({ repo }); return repo + ': deleted'; }
         catch (error) { return repo + ': ' + error.status; }
       }));
       return settled;`,
    );
    expect(output.result).toEqual(['old-site: deleted', 'payments: denied']);
    const repos = person.asked.map((entry) => (entry.arguments as { repo: string }).repo);
    expect(repos.sort()).toEqual(['old-site', 'payments']);
    expect(person.asked.every((entry) => entry.via === 'program')).toBe(true);
    expect(log.ran).toEqual([{ name: 'delete_repo', input: { repo: 'old-site' } }]);
  });

  it("asks the tool's needsApproval about the repaired arguments, and asks nobody when it says no", async () => {
    const log: ApprovalLog = { asked: [], ran: [] };
    const person = approver(() => 'allow-once');
    const search = setup(approvalToolSet(log), {
      config: { enabled: 'on' },
      program: { policy: allowAll, approval: person.adapter },
    });
    const { output } = await runProgram(
      search,
      `await tools.transfer({ amount: '50' });
       await tools.transfer({ amount: '5000' });
       return 'both';`,
    );
    expect(output.result).toBe('both');
    // "5000" became 5000 by the schema before needsApproval saw it.
    expect(log.asked).toEqual([
      { name: 'transfer', input: { amount: 50 } },
      { name: 'transfer', input: { amount: 5000 } },
    ]);
    expect(person.asked.map((entry) => entry.arguments)).toEqual([{ amount: 5000 }]);
    expect(log.ran.map((entry) => entry.input)).toEqual([{ amount: 50 }, { amount: 5000 }]);
  });

  it('still refuses what the policy denies after your approval allowed the tool for the session', async () => {
    const log: ApprovalLog = { asked: [], ran: [] };
    const search = setup(approvalToolSet(log), {
      config: { enabled: 'on' },
      sessionId: 'session-1',
      approval: { name: 'session', request: () => 'allow-session' },
      toolApproval: {
        transfer: (input: { amount: number }) => (input.amount > 100 ? 'denied' : undefined),
      },
      program: { policy: allowAll },
    });
    const { output } = await runProgram(
      search,
      `const out = [];
       for (const amount of [5, 500, 7]) {
         try { await tools.transfer({ amount }); out.push(amount + ': ran'); }
         catch (error) { out.push(amount + ': ' + error.status); }
       }
       return out;`,
    );
    expect(output.result).toEqual(['5: ran', '500: denied', '7: ran']);
    expect(log.ran.map((entry) => entry.input)).toEqual([{ amount: 5 }, { amount: 7 }]);
  });

  it('denies a call that needs approval when there is nobody to ask inside a program', async () => {
    const log: ApprovalLog = { asked: [], ran: [] };
    const search = setup(approvalToolSet(log), {
      config: { enabled: 'on' },
      program: { policy: allowAll },
    });
    const { output } = await runProgram(
      search,
      `try { await tools.delete_repo({ repo: 'old-site' }); return 'ran'; }
       catch (error) { return { status: error.status, reason: error.reason }; }`,
    );
    const answer = output.result as { status: string; reason: string };
    expect(answer.status).toBe('denied');
    expect(answer.reason).toContain("'delete_repo' needs approval");
    expect(log.ran).toEqual([]);
  });
});

describe('withToolSearch({ program }): hostile input', () => {
  const search = setup(catalogToolSet(), {
    core: ['read_file'],
    config: { enabled: 'on' },
    program: { policy: allowAll, limits: { maxSourceBytes: 2_000 } },
  });

  it('answers malformed program arguments from the model with an error it can act on', async () => {
    for (const source of [undefined, 42, '', { code: 'return 1' }]) {
      const { output } = await runProgram(search, source);
      expect(output.status).toBe('error');
      expect(output.error?.code).toBe('invalid_argument');
    }
  });

  it('refuses a source over the size limit without running it', async () => {
    const { output } = await runProgram(search, `return '${'x'.repeat(5_000)}'`);
    expect(output.error?.code).toBe('program_source_too_large');
  });

  it('refuses a program that calls tool_program or tool_call', async () => {
    const { output } = await runProgram(
      search,
      `const statuses = [];
       for (const name of ['tool_program', 'tool_call', 'tool_search']) {
         try { await tools.call(name, { source: 'return 1', name: 'everything_echo' }); statuses.push('ran'); }
         catch (error) { statuses.push(error.status); }
       }
       return statuses;`,
    );
    expect(output.result).toEqual(['denied', 'denied', 'denied']);
  });

  it('does not run tool_program when the model asks tool_call for it', async () => {
    const result = await generateText({
      model: createScriptedModel([
        { tool: 'tool_call', input: { name: 'tool_program', arguments: { source: 'return 1' } } },
        { text: 'ok' },
      ]),
      ...search,
      stopWhen: stepCountIs(3),
      prompt: 'go',
    });
    const output = result.steps[0]?.toolResults[0]?.output as { error?: string };
    expect(output.error).toBeDefined();
    expect(JSON.stringify(output)).not.toContain('"status":"completed"');
  });

  it('refuses a tool set that already has a tool named tool_program', () => {
    const tools = { ...catalogToolSet(), tool_program: catalogToolSet()['read_file']! };
    expect(() => withToolSearch(tools, { program: true })).toThrow(/tool_program/);
    expect(() => withToolSearch(tools)).not.toThrow();
  });
});
