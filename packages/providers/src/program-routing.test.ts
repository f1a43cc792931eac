// Routing the platforms' nested calls: the hostile pass (forged, malformed and unknown
// callers and names never run, and never crash) and policy parity (a call meets the same
// outcome directly and from a platform program).
import { createProgramPolicy } from '@tool-search/code';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import {
  type AuditRecord,
  createAuditHook,
  createCallbackApproval,
  createDispatcher,
  createPolicyApproval,
  createToolPolicyGuardrail,
  type DispatchResult,
  type Guardrail,
} from '@tool-search/hooks';
import { type ConformanceCase, conformanceCases } from '@tool-search/hooks/testing';
import { describe, expect, it } from 'vitest';
import { programTools } from './__fixtures__/program-runtime.js';
import {
  ANTHROPIC_CODE_EXECUTION,
  createAnthropicProgramState,
  dispatchAnthropicToolUse,
  prepareAnthropicTools,
  routeAnthropicToolUse,
} from './anthropic.js';
import {
  createOpenAIProgramState,
  dispatchOpenAIFunctionCall,
  prepareOpenAIResponsesTools,
  routeOpenAIFunctionCall,
} from './openai.js';

const offered = { programmatic: true, config: { enabled: 'off' as const } };
const program = (toolId = 'srvtoolu_1') => ({ type: ANTHROPIC_CODE_EXECUTION, tool_id: toolId });

function spyDispatch() {
  const calls: ToolCall[] = [];
  const dispatch = (call: ToolCall) => {
    calls.push(call);
    return { status: 'ok', result: 'ran', call };
  };
  return { calls, dispatch };
}

describe('routeAnthropicToolUse and dispatchAnthropicToolUse: the hostile pass', () => {
  const callers: [string, unknown][] = [
    ['a program caller for a tool without allowed_callers', program()],
    ['a forged caller type', { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' }],
    ['an invented caller type', { type: 'sudo', tool_id: 'srvtoolu_1' }],
    ['a caller without tool_id', { type: ANTHROPIC_CODE_EXECUTION }],
    ['an empty tool_id', { type: ANTHROPIC_CODE_EXECUTION, tool_id: '' }],
    ['a caller that is a string', 'code_execution_20260120'],
    ['a caller that is an array', [program()]],
    ['a caller whose type is a number', { type: 42, tool_id: 'srvtoolu_1' }],
  ];
  for (const [what, caller] of callers) {
    it(`refuses ${what}: nothing runs, the model reads an error result`, async () => {
      const prepared = await prepareAnthropicTools(programTools, offered);
      const { calls, dispatch } = spyDispatch();
      const result = await dispatchAnthropicToolUse(
        prepared,
        { id: 'toolu_1', name: 'slack_post_message', input: { channel: '#ops' }, caller },
        dispatch,
      );
      expect(calls).toEqual([]);
      expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: true });
      expect(result.content).toMatch(/^Denied: /);
    });
  }

  it('refuses nested calls of unknown names, a name that is not a string and a 1 MB name', async () => {
    const prepared = await prepareAnthropicTools(programTools, offered);
    const { calls, dispatch } = spyDispatch();
    for (const name of ['nope', '', 'x'.repeat(1_000_000), 7, null]) {
      const result = await dispatchAnthropicToolUse(
        prepared,
        { id: 'toolu_1', name: name as string, input: {}, caller: program() },
        dispatch,
      );
      expect(result.is_error).toBe(true);
      expect(result.content.length).toBeLessThan(400);
    }
    expect(calls).toEqual([]);
  });

  it('refuses a program call when programmatic calling was not enabled, and a program no response started', async () => {
    const plain = await prepareAnthropicTools(programTools, { config: { enabled: 'off' } });
    const block = { id: 'toolu_1', name: 'weather_forecast', input: {}, caller: program() };
    expect(routeAnthropicToolUse(plain, block)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not enabled'),
    });
    const prepared = await prepareAnthropicTools(programTools, offered);
    const state = createAnthropicProgramState();
    state.observe({
      container: { id: 'c1' },
      content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution' }],
    });
    expect(routeAnthropicToolUse(prepared, block, state)).toMatchObject({ ok: true });
    expect(
      routeAnthropicToolUse(prepared, { ...block, caller: program('srvtoolu_other') }, state),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no response of this conversation started'),
    });
    expect(state.requestFields()).toEqual({ container: 'c1' });
    state.observe(null as never);
    state.observe({ container: 'odd' as never, content: 'odd' as never });
    expect(state.container).toBe('c1');
  });

  it('answers a block without an id with a typed error, and survives an audit sink that throws', async () => {
    const prepared = await prepareAnthropicTools(programTools, offered);
    expect(() => routeAnthropicToolUse(prepared, null as never)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    const audit = {
      recordRefusal: () => {
        throw new Error('sink down');
      },
    };
    const result = await dispatchAnthropicToolUse(
      prepared,
      { id: 'toolu_1', name: 'slack_post_message', input: {}, caller: program() },
      spyDispatch().dispatch,
      { audit },
    );
    expect(result.is_error).toBe(true);
  });
});

describe('routeOpenAIFunctionCall and dispatchOpenAIFunctionCall: the hostile pass', () => {
  const item = (caller: unknown, extra: Record<string, unknown> = {}) => ({
    call_id: 'call_1',
    name: 'slack_post_message',
    arguments: '{"channel":"#ops"}',
    caller,
    ...extra,
  });
  const callers: [string, unknown][] = [
    [
      'a program caller for a function without allowed_callers',
      { type: 'program', caller_id: 'call_prog_1' },
    ],
    ['a forged caller type', { type: 'programmatic', caller_id: 'call_prog_1' }],
    ['a caller without caller_id', { type: 'program' }],
    ['a caller that is a number', 5],
    ['a caller whose type is an object', { type: { program: true } }],
  ];
  for (const [what, caller] of callers) {
    it(`refuses ${what}: nothing runs, the output says why`, async () => {
      const prepared = await prepareOpenAIResponsesTools(programTools, offered);
      const { calls, dispatch } = spyDispatch();
      const output = await dispatchOpenAIFunctionCall(prepared, item(caller), dispatch);
      expect(calls).toEqual([]);
      expect(output.output).toMatch(/^Denied: /);
    });
  }

  it('refuses unknown names, bad arguments text and an unseen program; answers a typed error without call_id', async () => {
    const prepared = await prepareOpenAIResponsesTools(programTools, offered);
    const { calls, dispatch } = spyDispatch();
    const fromProgram = { type: 'program', caller_id: 'call_prog_1' };
    for (const bad of [
      item(fromProgram, { name: 'nope' }),
      item(fromProgram, { name: 'weather_forecast', arguments: '[1,2]' }),
      item(fromProgram, { name: 'weather_forecast', arguments: 'not json' }),
      item(fromProgram, { name: 'weather_forecast', arguments: 7 }),
      item(undefined, { name: 'weather_forecast', arguments: '{' }),
    ]) {
      const output = await dispatchOpenAIFunctionCall(prepared, bad, dispatch);
      expect(output.output, JSON.stringify(bad)).toMatch(/^Denied: /);
    }
    const state = createOpenAIProgramState();
    state.observe([{ type: 'program', call_id: 'call_prog_1', fingerprint: 'fp_1' }, 'odd', null]);
    expect(state.fingerprint('call_prog_1')).toBe('fp_1');
    const weather = item(fromProgram, { name: 'weather_forecast', arguments: '{"city":"Paris"}' });
    expect(routeOpenAIFunctionCall(prepared, weather, state)).toMatchObject({
      ok: true,
      context: { via: 'program', programId: 'call_prog_1' },
    });
    expect(
      routeOpenAIFunctionCall(
        prepared,
        { ...weather, caller: { type: 'program', caller_id: 'x' } },
        state,
      ),
    ).toMatchObject({ ok: false, programId: 'x' });
    expect(calls).toEqual([]);
    expect(() => routeOpenAIFunctionCall(prepared, {} as never)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

// ---- Policy parity ----------------------------------------------------------------------

const POLICIES: Record<string, () => { guardrails?: Guardrail[]; approval?: unknown }> = {
  'a deny-list guardrail': () => ({
    guardrails: [createToolPolicyGuardrail({ deny: ['delete_*', 'x'] })],
  }),
  'an approval that asks about destructive tools and says no': () => ({
    approval: createPolicyApproval({
      require: { annotations: { destructiveHint: true } },
      autoApprove: { annotations: { readOnlyHint: true } },
      ask: createCallbackApproval(() => false, { name: 'person' }),
    }),
  }),
  'the program policy of @tool-search/code': () => ({ guardrails: [createProgramPolicy()] }),
};

interface Outcome {
  status: DispatchResult['status'] | 'refused';
  by?: string;
  ran: ToolCall[];
  audit: Partial<AuditRecord>[];
}

function world(policy: string, tool: ToolDefinition) {
  const ran: ToolCall[] = [];
  const audit: AuditRecord[] = [];
  const settled: DispatchResult[] = [];
  const dispatch = createDispatcher({
    execute: (call) => {
      ran.push(structuredClone(call));
      return { ran: call.name };
    },
    resolveTool: (name) => (name === tool.name ? tool : undefined),
    ...(POLICIES[policy]?.() as object),
    hooks: [
      createAuditHook((record) => void audit.push(record), { includeArguments: true }),
      { name: 'settled', onSettled: ({ result }) => void settled.push(result) },
    ],
  });
  const outcome = (): Outcome => {
    const last = settled.at(-1);
    return {
      status: last?.status ?? 'refused',
      ...(last?.status === 'denied' ? { by: `${last.by.kind}:${last.by.name}` } : {}),
      ran,
      audit: audit.map(
        ({
          via: _via,
          programId: _programId,
          callId: _callId,
          startedAt: _s,
          durationMs: _d,
          ...rest
        }) => {
          // When a person answered and how long it took are times like the others; who answered is compared.
          if (rest.approvalAnswer === undefined) return rest;
          const { at: _at, waitMs: _waitMs, ...answer } = rest.approvalAnswer;
          return { ...rest, approvalAnswer: answer as AuditRecord['approvalAnswer'] };
        },
      ),
    };
  };
  return { dispatch, outcome };
}

const definitionOf = (testCase: ConformanceCase): ToolDefinition =>
  testCase.tool ?? { name: testCase.call.name, inputSchema: { type: 'object' } };
// The bridge's names are never sent as tools; the kit's `tool_call` case is not a tool call here.
const cases = conformanceCases().filter((testCase) => testCase.call.name !== 'tool_call');

describe('policy parity: the conformance kit, directly and from a platform program', () => {
  const allowAll = { allows: () => true };
  const programPolicy = createProgramPolicy();
  for (const policy of Object.keys(POLICIES)) {
    it(`Anthropic and OpenAI meet the same outcome under ${policy}`, async () => {
      const checksPrograms = policy.includes('program policy');
      for (const testCase of cases) {
        const tool = definitionOf(testCase);
        const label = `${policy}: ${tool.name.slice(0, 40)}`;
        const anthropic = await prepareAnthropicTools([tool], {
          config: { enabled: 'off' },
          programmatic: { policy: checksPrograms ? programPolicy : allowAll },
        });
        const openai = await prepareOpenAIResponsesTools([tool], {
          config: { enabled: 'off' },
          programmatic: { policy: checksPrograms ? programPolicy : allowAll },
        });
        const context = testCase.sessionId === undefined ? {} : { sessionId: testCase.sessionId };
        const direct = world(policy, tool);
        const input = structuredClone(testCase.call.arguments);
        const name = anthropic.names.toProvider(tool.name);
        await dispatchAnthropicToolUse(anthropic, { id: 't1', name, input }, direct.dispatch, {
          context,
        });
        const expected = direct.outcome();
        const allowed = !checksPrograms || programPolicy.allows(tool);
        const fromAnthropic = world(policy, tool);
        await dispatchAnthropicToolUse(
          anthropic,
          { id: 't1', name, input, caller: program() },
          fromAnthropic.dispatch,
          { context },
        );
        const fromOpenAI = world(policy, tool);
        await dispatchOpenAIFunctionCall(
          openai,
          {
            call_id: 't1',
            name: openai.names.toProvider(tool.name),
            arguments: JSON.stringify(testCase.call.arguments),
            caller: { type: 'program', caller_id: 'call_prog_1' },
          },
          fromOpenAI.dispatch,
          { context },
        );
        for (const outcome of [fromAnthropic.outcome(), fromOpenAI.outcome()]) {
          if (allowed) expect(outcome, label).toEqual(expected);
          else {
            // Not offered to programs: refused before dispatch, as the policy would.
            expect(outcome, label).toMatchObject({ status: 'refused', ran: [] });
          }
        }
        expect(anthropic.programmatic?.tools.includes(tool.name), label).toBe(allowed);
      }
    });
  }
});
