// Policy parity: every case of the hooks conformance kit, run directly and from inside a
// program, meets the same outcome: status, who decided, whether it ran and with which
// arguments, and the same audit record apart from the route (and the program's id).
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import {
  type AuditRecord,
  createAuditHook,
  createCallbackApproval,
  createDispatcher,
  createPolicyApproval,
  createToolPolicyGuardrail,
  type DispatchResult,
  type ToolCallHook,
} from '@tool-search/hooks';
import { type ConformanceCase, conformanceCases, testGuardrail } from '@tool-search/hooks/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createProgramPolicy } from './program-policy.js';
import { createProgramTool } from './program-tool.js';
import type { ProgramTool } from './program-types.js';

/** The policies each case meets, the same on both routes. */
const POLICIES = {
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
  'a hook that rewrites the arguments, and an approval on the rewrite': () => ({
    hooks: [
      {
        name: 'stamp',
        beforeCall: (call: ToolCall) => ({
          call: { ...call, arguments: { ...call.arguments, stamped: true } },
        }),
      } satisfies ToolCallHook,
    ],
    approval: createCallbackApproval((request) => request.call.name.length < 200, {
      name: 'short-names',
    }),
  }),
} as const;

// A program calls only tools it can reach by name: a case without a definition gets a
// plain one (no annotations, so policy sees the same as a direct call without one).
const definitionOf = (testCase: ConformanceCase): ToolDefinition =>
  testCase.tool ?? { name: testCase.call.name, inputSchema: { type: 'object' } };

interface Outcome {
  status: DispatchResult['status'] | 'refused';
  by?: string;
  ran: ToolCall[];
  audit: Partial<AuditRecord>[];
}

function comparable(record: AuditRecord): Partial<AuditRecord> {
  const {
    via: _via,
    programId: _programId,
    startedAt: _startedAt,
    durationMs: _durationMs,
    ...rest
  } = record;
  // When a person answered and how long it took are times like the others; who answered is compared.
  if (rest.approvalAnswer === undefined) return rest;
  const { at: _at, waitMs: _waitMs, ...answer } = rest.approvalAnswer;
  return { ...rest, approvalAnswer: answer as AuditRecord['approvalAnswer'] };
}

function setup(policy: keyof typeof POLICIES, tools: ToolDefinition[]) {
  const ran: ToolCall[] = [];
  const audit: AuditRecord[] = [];
  const settled: DispatchResult[] = [];
  const dispatch = createDispatcher({
    execute: (call) => {
      ran.push(structuredClone(call));
      return { ran: call.name };
    },
    ...POLICIES[policy](),
    hooks: [
      ...((POLICIES[policy]() as { hooks?: ToolCallHook[] }).hooks ?? []),
      createAuditHook((record) => void audit.push(record), { includeArguments: true }),
      { name: 'settled', onSettled: ({ result }) => void settled.push(result) },
    ],
  });
  return { ran, audit, settled, dispatch, tools };
}

function outcomeOf(world: ReturnType<typeof setup>): Outcome {
  const last = world.settled.at(-1);
  return {
    status: last?.status ?? 'refused',
    ...(last?.status === 'denied' ? { by: `${last.by.kind}:${last.by.name}` } : {}),
    ran: world.ran,
    audit: world.audit.map(comparable),
  };
}

const programs: ProgramTool[] = [];
afterAll(() => Promise.all(programs.map((program) => program.close())));

// The bridge names are not tools: a program refuses them before dispatch (see the escape
// suite), so the one kit case named `tool_call` is compared on its refusal alone.
const cases = conformanceCases().filter((testCase) => testCase.call.name !== 'tool_call');

describe('policy parity: the conformance kit, directly and from a program', () => {
  for (const policy of Object.keys(POLICIES) as (keyof typeof POLICIES)[]) {
    it(`meets the same outcome under ${policy}`, async () => {
      // One program tool for every case: it reaches the case's tool through the current world.
      let current = setup(policy, []);
      const program = createProgramTool({
        tools: () => current.tools,
        dispatch: (call, ctx) => current.dispatch(call, ctx),
        poolSize: 1,
        limits: { maxSourceBytes: 1024 * 1024 },
      });
      programs.push(program);
      for (const testCase of cases) {
        const tool = definitionOf(testCase);
        const direct = setup(policy, [tool]);
        // A provider's call id belongs to the call the model made: from a program, that is
        // tool_program's, so the nested call has none. The reference is made without it.
        const { id: _providerId, ...call } = structuredClone(testCase.call);
        await direct.dispatch(call, {
          via: 'direct',
          tool,
          ...(testCase.sessionId === undefined ? {} : { sessionId: testCase.sessionId }),
        });
        const fromProgram = setup(policy, [tool]);
        current = fromProgram;
        const args = JSON.stringify(JSON.stringify(testCase.call.arguments));
        const result = await program.run(
          {
            source: `try { return await tools.call(${JSON.stringify(testCase.call.name)}, JSON.parse(${args})); } catch (error) { return error.status; }`,
          },
          testCase.sessionId === undefined ? {} : { sessionId: testCase.sessionId },
        );
        expect(result.error, testCase.call.name).toBeUndefined();
        expect(outcomeOf(fromProgram), `${policy}: ${testCase.call.name.slice(0, 40)}`).toEqual(
          outcomeOf(direct),
        );
        expect(fromProgram.audit.every((record) => record.via === 'program')).toBe(true);
      }
    });
  }

  it('refuses the kit’s call named tool_call from a program, before any policy', async () => {
    const bridgeCase = conformanceCases().find((testCase) => testCase.call.name === 'tool_call')!;
    const world = setup('a deny-list guardrail', [definitionOf(bridgeCase)]);
    const program = createProgramTool({
      tools: world.tools,
      dispatch: world.dispatch,
      poolSize: 1,
    });
    programs.push(program);
    const result = await program.run({
      source: `try { await tools.call('tool_call', ${JSON.stringify(bridgeCase.call.arguments)}); } catch (error) { return error.status; }`,
    });
    expect(result.result).toBe('denied');
    expect(world.ran).toEqual([]);
  });
});

// The program policy is a guardrail like any other: the kit checks it too.
testGuardrail(createProgramPolicy({ allow: ['ticket_*'] }), {
  allows: [
    { call: { name: 'delete_file', arguments: {} }, via: 'direct' },
    {
      call: { name: 'read_file', arguments: { path: '/a' } },
      via: 'program',
      tool: {
        name: 'read_file',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true },
      },
    },
    { call: { name: 'ticket_create', arguments: {} }, via: 'program' },
  ],
  denies: [
    { call: { name: 'delete_file', arguments: {} }, via: 'program' },
    {
      call: { name: 'write_file', arguments: {} },
      via: 'program',
      tool: {
        name: 'write_file',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: false },
      },
    },
  ],
});
