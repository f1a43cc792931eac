import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgramRuntime, programTools } from './__fixtures__/program-runtime.js';
import {
  answerOpenAIToolSearch,
  createOpenAIProgramState,
  dispatchOpenAIFunctionCall,
  type OpenAIRequestTool,
  prepareOpenAIResponsesTools,
  toolCallFromOpenAI,
} from './openai.js';
import type { PreparedTools } from './plan.js';
import { type ScriptedStep, type StandIn, startOpenAIStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

type Runtime = ReturnType<typeof createProgramRuntime>;

// One user turn of the documented loop: every output item (the program item with its
// fingerprint too) is carried over, every function call goes through the same dispatcher.
async function runLoop(
  prepared: PreparedTools<OpenAIRequestTool>,
  runtime: Runtime,
  steps: ScriptedStep[],
  options: { tamper?: (item: OpenAI.Responses.ResponseOutputItem) => unknown } = {},
) {
  standIn = await startOpenAIStandIn({ steps });
  const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
  const programs = createOpenAIProgramState();
  const input: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'Check acme/app.' },
  ];
  for (let turn = 0; turn < 6; turn += 1) {
    const response = await client.responses.create({
      model: 'gpt-5.5',
      input,
      tools: prepared.tools,
    });
    programs.observe(response.output);
    let called = false;
    for (const item of response.output) {
      input.push((options.tamper?.(item) ?? item) as OpenAI.Responses.ResponseInputItem);
      if (item.type === 'tool_search_call' && item.execution === 'client') {
        input.push(await answerOpenAIToolSearch(prepared, item));
        called = true;
      } else if (item.type === 'function_call') {
        input.push(
          await dispatchOpenAIFunctionCall(prepared, item, runtime.dispatch, {
            state: programs,
            audit: runtime.audit,
          }),
        );
        called = true;
      }
    }
    if (!called) return response.output_text;
  }
  throw new Error('the loop did not end');
}

const prepareWith = (
  runtime: Runtime,
  extra: Parameters<typeof prepareOpenAIResponsesTools>[1] = {},
) =>
  prepareOpenAIResponsesTools(programTools, {
    mode: 'client',
    config: { enabled: 'on' },
    programmatic: { policy: runtime.policy },
    ...extra,
  });

describe('prepareOpenAIResponsesTools with programmatic', () => {
  it('sets allowed_callers from the program policy, keeps those functions non-strict, and sends programmatic_tool_calling', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, { mode: 'hosted', strict: true });
    expect(prepared.tools.at(-1)).toEqual({ type: 'programmatic_tool_calling' });
    const functions = prepared.tools.flatMap((tool) =>
      tool.type === 'namespace' ? tool.tools : tool.type === 'function' ? [tool] : [],
    );
    expect(
      Object.fromEntries(functions.map((fn) => [fn.name, [fn.allowed_callers, fn.strict]])),
    ).toEqual({
      read_file: [undefined, true],
      github_create_issue: [undefined, true],
      github_list_pull_requests: [['direct', 'programmatic'], false],
      slack_post_message: [undefined, true],
      weather_forecast: [['direct', 'programmatic'], false],
    });
    // Arguments of a program-callable function are not "restored": it was never strict.
    const call = toolCallFromOpenAI(prepared, {
      call_id: 'c1',
      name: 'weather_forecast',
      arguments: '{"city":"Paris","days":null}',
    });
    expect(call.arguments).toEqual({ city: 'Paris', days: null });
  });

  it('a client search loads program-callable functions with their allowed_callers', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime);
    const output = await answerOpenAIToolSearch(prepared, {
      call_id: 'c1',
      arguments: { query: 'weather forecast city' },
    });
    expect(output.tools.find((fn) => fn.name === 'weather_forecast')?.allowed_callers).toEqual([
      'direct',
      'programmatic',
    ]);
  });
});

describe('OpenAI programmatic tool calling with the real client', () => {
  it('a program calls the read-only functions: each nested call is dispatched with via program, and the program item goes back with its fingerprint', async () => {
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
    expect(runtime.executed[0]?.programId).toMatch(/^call_prog_/);
    const answering = (standIn!.requests[2] as { input: Record<string, unknown>[] }).input;
    const program = answering.find((item) => item['type'] === 'program');
    expect(program?.['fingerprint']).toMatch(/^fp_/);
    const outputs = answering.filter((item) => item['type'] === 'function_call_output');
    expect(outputs.map((item) => item['caller'])).toEqual([
      { type: 'program', caller_id: program?.['call_id'] },
      { type: 'program', caller_id: program?.['call_id'] },
    ]);
    expect(text).toContain('Fix login');
    expect(text).toContain('sunny');
  });

  it('a nested write the policy does not allow is denied by the dispatcher’s program policy, never run', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, {
      config: { enabled: 'off' },
      programmatic: { policy: { allows: () => true } },
    });
    const text = await runLoop(prepared, runtime, [
      {
        program: [
          { call: 'github_create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
        ],
      },
      { reply: 'Done:' },
    ]);
    expect(standIn?.violations).toEqual([]);
    expect(runtime.executed).toEqual([]);
    expect(runtime.records).toEqual([
      expect.objectContaining({
        tool: 'github.create_issue',
        via: 'program',
        status: 'denied',
        deniedBy: { kind: 'guardrail', name: 'program-policy' },
      }),
    ]);
    expect(text).toContain("Denied: programs may not call 'github.create_issue'");
  });

  it('asks for approval of each nested call on its own; a platform that ignores allowed_callers gets a refusal', async () => {
    const runtime = createProgramRuntime({
      approve: (request) => (request.call.arguments['city'] === 'Atlantis' ? 'deny' : 'allow-once'),
    });
    const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
    const text = await runLoop(prepared, runtime, [
      {
        program: [
          { call: 'weather_forecast', input: { city: 'Paris' } },
          { call: 'weather_forecast', input: { city: 'Atlantis' } },
          { call: 'slack_post_message', input: { channel: '#ops', text: 'hi' } },
        ],
        ignoreAllowedCallers: true,
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
    expect(runtime.records.map((record) => [record.tool, record.status])).toEqual([
      ['weather_forecast', 'ok'],
      ['weather_forecast', 'denied'],
      ['slack_post_message', 'denied'],
    ]);
    expect(text).toContain("programs may not call 'slack_post_message'");
  });

  it('a loop that changes the program item’s fingerprint is refused by the stand-in', async () => {
    const runtime = createProgramRuntime();
    const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
    await expect(
      runLoop(
        prepared,
        runtime,
        [{ program: [{ call: 'weather_forecast', input: { city: 'Paris' } }] }],
        {
          tamper: (item) => (item.type === 'program' ? { ...item, fingerprint: 'fp_other' } : item),
        },
      ),
    ).rejects.toThrow(/carried over unchanged \(fingerprint\)/);
  });

  it('forged and malformed callers on nested calls are refused before dispatch, the loop goes on', async () => {
    for (const caller of [{ type: 'programme', caller_id: 'x' }, { type: 'program' }, 'program']) {
      const runtime = createProgramRuntime();
      const prepared = await prepareWith(runtime, { config: { enabled: 'off' } });
      const text = await runLoop(prepared, runtime, [
        { program: [{ call: 'weather_forecast', input: { city: 'Paris' } }], caller },
        { reply: 'Done:' },
      ]);
      expect(runtime.executed, JSON.stringify(caller)).toEqual([]);
      expect(text, JSON.stringify(caller)).toContain('Denied:');
      await standIn?.close();
      standIn = undefined;
    }
  });
});
