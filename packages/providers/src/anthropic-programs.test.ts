import Anthropic from '@anthropic-ai/sdk';
import { assembleTools } from '@tool-search/bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgramRuntime, programTools } from './__fixtures__/program-runtime.js';
import type { AnthropicRequestTool } from './anthropic.js';
import {
  ANTHROPIC_CODE_EXECUTION,
  answerAnthropicToolSearch,
  checkAnthropicRequest,
  createAnthropicProgramState,
  dispatchAnthropicToolUse,
  prepareAnthropicTools,
} from './anthropic.js';
import type { PreparedTools } from './plan.js';
import { type ScriptedStep, type StandIn, startAnthropicStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

type Runtime = ReturnType<typeof createProgramRuntime>;

// One user turn of the documented loop: the container goes back on every request, every
// tool_use (direct or from a program) goes through the same dispatcher.
async function runLoop(
  prepared: PreparedTools<AnthropicRequestTool>,
  runtime: Runtime,
  steps: ScriptedStep[],
  options: { carryContainer?: boolean } = {},
) {
  standIn = await startAnthropicStandIn({ steps });
  const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
  const programs = createAnthropicProgramState();
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Check acme/app.' }];
  for (let turn = 0; turn < 6; turn += 1) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: prepared.tools,
      messages,
      ...(options.carryContainer === false ? {} : programs.requestFields()),
    });
    programs.observe(message);
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') {
      return message.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('');
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      results.push(
        block.name === prepared.searchToolName
          ? await answerAnthropicToolSearch(prepared, block)
          : await dispatchAnthropicToolUse(prepared, block, runtime.dispatch, {
              state: programs,
              audit: runtime.audit,
              context: { sessionId: 's1' },
            }),
      );
    }
    messages.push({ role: 'user', content: results });
  }
  throw new Error('the loop did not end');
}

const prepareWith = (runtime: Runtime, extra: Parameters<typeof prepareAnthropicTools>[1] = {}) =>
  prepareAnthropicTools(programTools, {
    mode: 'client',
    config: { enabled: 'on' },
    programmatic: { policy: runtime.policy },
    ...extra,
  });

describe('prepareAnthropicTools with programmatic', () => {
  it('sets allowed_callers from the program policy and sends the code execution tool', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, { cacheControl: { type: 'ephemeral' } });
    const callers = Object.fromEntries(
      prepared.tools.map((tool) => [
        tool.name,
        (tool as { allowed_callers?: string[] }).allowed_callers,
      ]),
    );
    expect(callers).toEqual({
      read_file: undefined,
      github_create_issue: undefined,
      github_list_pull_requests: ['direct', ANTHROPIC_CODE_EXECUTION],
      slack_post_message: undefined,
      weather_forecast: ['direct', ANTHROPIC_CODE_EXECUTION],
      tool_search: undefined,
      code_execution: undefined,
    });
    expect(prepared.tools.at(-1)).toEqual({
      type: ANTHROPIC_CODE_EXECUTION,
      name: 'code_execution',
      cache_control: { type: 'ephemeral' },
    });
    expect(prepared.programmatic).toEqual({
      tools: ['github_list_pull_requests', 'weather_forecast'],
      direct: true,
      caller: ANTHROPIC_CODE_EXECUTION,
    });
    for (const tool of programTools) {
      expect(prepared.programmatic?.tools.includes(tool.name)).toBe(runtime.policy.allows(tool));
    }
  });

  it('with direct: false, an allowed tool is callable from programs only; without the option nothing changes', async () => {
    const runtime = createProgramRuntime();
    const only = await prepareWith(runtime, {
      programmatic: { policy: runtime.policy, direct: false },
    });
    const pulls = only.tools.find((tool) => tool.name === 'github_list_pull_requests');
    expect((pulls as { allowed_callers?: string[] }).allowed_callers).toEqual([
      ANTHROPIC_CODE_EXECUTION,
    ]);
    const plain = await prepareAnthropicTools(programTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect(plain.programmatic).toBeUndefined();
    expect(JSON.stringify(plain.tools)).not.toMatch(/allowed_callers|code_execution/);
  });

  it('in bridge mode, the bridge tools are never offered to programs; the visible real tools are', async () => {
    const runtime = createProgramRuntime();
    const tools = programTools.map((tool) =>
      tool.name === 'read_file' ? { ...tool, annotations: { readOnlyHint: true } } : tool,
    );
    const prepared = await prepareAnthropicTools(tools, {
      mode: 'bridge',
      config: { enabled: 'on' },
      bridge: assembleTools,
      programmatic: { policy: runtime.policy },
    });
    expect(prepared.mode).toBe('bridge');
    expect(
      prepared.tools.map((tool) => [
        tool.name,
        (tool as { allowed_callers?: string[] }).allowed_callers,
      ]),
    ).toEqual([
      ['read_file', ['direct', ANTHROPIC_CODE_EXECUTION]],
      ['tool_search', undefined],
      ['tool_describe', undefined],
      ['tool_call', undefined],
      ['code_execution', undefined],
    ]);
    // The deferred read-only tools are behind tool_call: no program can reach them by name.
    expect(prepared.programmatic?.tools).toEqual(['read_file']);
  });

  it('checkAnthropicRequest refuses allowed_callers without their code execution tool, and strict on a program-callable tool', () => {
    const tool = {
      name: 'weather_forecast',
      input_schema: { type: 'object' as const },
      allowed_callers: [ANTHROPIC_CODE_EXECUTION],
    };
    expect(() => checkAnthropicRequest({ tools: [tool] })).toThrow(
      expect.objectContaining({ code: 'invalid_argument', data: { tool: 'weather_forecast' } }),
    );
    const codeExecution = { type: ANTHROPIC_CODE_EXECUTION, name: 'code_execution' };
    expect(() => checkAnthropicRequest({ tools: [tool, codeExecution] })).not.toThrow();
    expect(() =>
      checkAnthropicRequest({ tools: [{ ...tool, strict: true }, codeExecution] }),
    ).toThrow(/strict: true/);
  });

  it('refuses a policy without allows(tool), with a typed error', async () => {
    await expect(
      prepareAnthropicTools(programTools, { programmatic: { policy: {} as never } }),
    ).rejects.toMatchObject({ code: 'invalid_argument', data: { field: 'programmatic.policy' } });
  });
});

describe('Anthropic programmatic tool calling with the real client', () => {
  it('a program found by search calls the read-only tools: each nested call is dispatched with via program, and the container goes back', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime);
    const text = await runLoop(prepared, runtime, [
      { search: 'list pull requests and the forecast', limit: 5 },
      {
        program: [
          { call: 'github_list_pull_requests', input: { repo: 'acme/app' } },
          { call: 'weather_forecast', input: { city: 'Paris' } },
        ],
      },
      { reply: 'Done:' },
    ]);
    expect(standIn?.violations).toEqual([]);
    expect(runtime.executed.map(({ name, via }) => [name, via])).toEqual([
      ['github_list_pull_requests', 'program'],
      ['weather_forecast', 'program'],
    ]);
    const programId = runtime.executed[0]?.programId;
    expect(programId).toMatch(/^srvtoolu_/);
    expect(runtime.executed[1]?.programId).toBe(programId);
    expect(runtime.records.map((record) => [record.tool, record.via, record.programId])).toEqual([
      ['github_list_pull_requests', 'program', programId],
      ['weather_forecast', 'program', programId],
    ]);
    // The request that answered the program's calls passed its container back.
    const requests = standIn?.requests as { container?: string }[];
    expect(requests[2]?.container).toMatch(/^container_/);
    expect(text).toContain('Fix login');
    expect(text).toContain('sunny');
  });

  it('a nested write the policy does not allow is denied by the dispatcher’s program policy, never run', async () => {
    const runtime = createProgramRuntime();
    // A preparation that (wrongly) offers every tool to programs: the dispatcher still decides.
    const prepared = await prepareWith(runtime, {
      config: { enabled: 'off' },
      programmatic: { policy: { allows: () => true } },
    });
    const text = await runLoop(prepared, runtime, [
      {
        program: [
          { call: 'weather_forecast', input: { city: 'Paris' } },
          { call: 'github_create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
        ],
      },
      { reply: 'Done:' },
    ]);
    expect(standIn?.violations).toEqual([]);
    expect(runtime.executed.map((call) => call.name)).toEqual(['weather_forecast']);
    const denied = runtime.records.find((record) => record.tool === 'github.create_issue');
    expect(denied).toMatchObject({
      via: 'program',
      status: 'denied',
      deniedBy: { kind: 'guardrail', name: 'program-policy' },
    });
    expect(text).toContain("Denied: programs may not call 'github.create_issue'");
    expect(text).toContain('"is_error":true');
  });

  it('a platform that ignores allowed_callers: the nested call of a tool not offered to programs is refused before dispatch and audited', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
    const text = await runLoop(prepared, runtime, [
      {
        program: [{ call: 'slack_post_message', input: { channel: '#ops', text: 'hi' } }],
        ignoreAllowedCallers: true,
      },
      { reply: 'Done:' },
    ]);
    expect(runtime.executed).toEqual([]);
    expect(runtime.records).toEqual([
      expect.objectContaining({
        tool: 'slack_post_message',
        via: 'program',
        status: 'denied',
        deniedBy: { kind: 'scope', name: 'allowed-callers' },
      }),
    ]);
    expect(text).toContain("programs may not call 'slack_post_message'");
  });

  it('asks for approval of each nested call on its own, with via program; a denial reaches the program', async () => {
    const runtime = createProgramRuntime({
      approve: (request) => (request.call.arguments['city'] === 'Atlantis' ? 'deny' : 'allow-once'),
    });
    const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
    const text = await runLoop(prepared, runtime, [
      {
        program: [
          { call: 'weather_forecast', input: { city: 'Paris' } },
          { call: 'weather_forecast', input: { city: 'Atlantis' } },
        ],
      },
      { reply: 'Done:' },
    ]);
    expect(standIn?.violations).toEqual([]);
    expect(
      runtime.approvals.map((request) => [request.call.arguments['city'], request.via]),
    ).toEqual([
      ['Paris', 'program'],
      ['Atlantis', 'program'],
    ]);
    expect(runtime.executed.map((call) => call.arguments['city'])).toEqual(['Paris']);
    expect(text).toContain('sunny');
    expect(text).toMatch(/"content":"Denied:[^"]*","is_error":true/);
  });

  it('a loop that drops the container is refused by the stand-in, as by the API', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
    await expect(
      runLoop(
        prepared,
        runtime,
        [{ program: [{ call: 'weather_forecast', input: { city: 'Paris' } }] }],
        { carryContainer: false },
      ),
    ).rejects.toThrow(/must pass the container/);
  });

  it('a forged caller type on a nested call is refused before dispatch, the loop goes on', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
    const text = await runLoop(prepared, runtime, [
      {
        program: [{ call: 'weather_forecast', input: { city: 'Paris' } }],
        caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_forged' },
      },
      { reply: 'Done:' },
    ]);
    expect(runtime.executed).toEqual([]);
    expect(text).toContain("caller type 'code_execution_20250825' is not the code execution tool");
  });
});
