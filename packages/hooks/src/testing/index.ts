import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../dispatcher.js';
import type {
  ApprovalAdapter,
  ApprovalDecision,
  ApprovalRequest,
  CallRoute,
  DispatchContext,
  Guardrail,
} from '../types.js';

/** One call for a conformance suite, with what the dispatcher would know about it. */
export interface ConformanceCase {
  call: ToolCall;
  /** The called tool's definition, as `ctx.tool` / `request.tool`. */
  tool?: ToolDefinition;
  sessionId?: string;
  /** How the call came in. @defaultValue 'direct' */
  via?: CallRoute;
}

/** Options of {@link testGuardrail}. */
export interface TestGuardrailOptions {
  /** Calls the guardrail must allow. */
  allows?: readonly ConformanceCase[];
  /** Calls the guardrail must deny (with a reason). */
  denies?: readonly ConformanceCase[];
  /** The suite's name. @defaultValue `testGuardrail(<guardrail name>)` */
  name?: string;
}

/** Options of {@link testApprovalAdapter}. */
export interface TestApprovalAdapterOptions {
  /**
   * Requests the adapter must answer without a person (for an interactive adapter,
   * drive it with a stub, or give it no terminal). A case's `expect` is the decision
   * it must give. @defaultValue a few read-only, destructive and unknown tools
   */
  requests?: readonly (ConformanceCase & { expect?: ApprovalDecision })[];
  /** The suite's name. @defaultValue `testApprovalAdapter(<adapter name>)` */
  name?: string;
}

const DECISIONS: readonly string[] = ['allow-once', 'allow-session', 'deny'];

function deeplyNested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level++) value = { next: value };
  return value;
}

/** Calls a careless guardrail might trip over. */
const ODD_CALLS: readonly ToolCall[] = [
  { name: 'x', arguments: {} },
  { name: 'tool_call', arguments: { name: 'x', arguments: {} } },
  { name: 'créer_un_ticket_数据库', arguments: { text: '💥\u0000\u202e' } },
  { name: 'x', arguments: JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') },
  { name: 'x', arguments: { list: [1, 'two', null, { three: 3 }], nothing: null } },
  { name: 'x', arguments: deeplyNested(64) },
  { name: 'x', arguments: { big: 'a'.repeat(100_000) } },
  { name: 'a'.repeat(1_000), arguments: {} },
];

const DEFAULT_REQUESTS: readonly ConformanceCase[] = [
  {
    call: { name: 'read_file', arguments: { path: '/tmp/a' } },
    tool: {
      name: 'read_file',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    },
  },
  {
    call: { id: 'c1', name: 'delete_file', arguments: { path: '/tmp/a' } },
    tool: {
      name: 'delete_file',
      inputSchema: { type: 'object' },
      annotations: { destructiveHint: true },
      toolset: 'mcp-fs',
    },
    sessionId: 'conformance',
    via: 'bridge',
  },
  { call: { name: 'unknown_tool', arguments: {} } },
];

/**
 * Every case the conformance kit checks on its own: the default approval requests (a
 * read-only tool, a destructive one from a session through the bridge, an unknown tool)
 * and the odd calls a careless guardrail might trip over (a bridge name, non-Latin names,
 * `__proto__` keys, nulls, deep nesting, 100 kB arguments, a 1,000-character name). Each
 * call is a fresh copy. A surface that hands calls to the dispatcher (a program, an
 * adapter) runs them directly and through itself to show the same policy outcome.
 *
 * @returns the cases, in a stable order
 * @throws nothing
 */
export function conformanceCases(): ConformanceCase[] {
  return [...DEFAULT_REQUESTS, ...ODD_CALLS.map((call) => ({ call }))].map((testCase) => ({
    ...testCase,
    call: structuredClone(testCase.call),
  }));
}

function contextOf(testCase: ConformanceCase, signal: AbortSignal): DispatchContext {
  return {
    via: testCase.via ?? 'direct',
    signal,
    ...(testCase.tool ? { tool: testCase.tool } : {}),
    ...(testCase.sessionId !== undefined ? { sessionId: testCase.sessionId } : {}),
  };
}

function requestOf(testCase: ConformanceCase, signal: AbortSignal): ApprovalRequest {
  const { tool, sessionId } = testCase;
  return {
    call: testCase.call,
    via: testCase.via ?? 'direct',
    signal,
    ...(tool ? { tool } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
  };
}

function expectVerdict(verdict: unknown): void {
  expect(typeof verdict).toBe('object');
  const { allow, reason } = verdict as { allow?: unknown; reason?: unknown };
  if (allow === true) return;
  expect(allow).toBe(false);
  expect(typeof reason).toBe('string');
  expect((reason as string).length).toBeGreaterThan(0);
}

function decisionOf(answer: unknown): string {
  const decision =
    typeof answer === 'string' ? answer : (answer as { decision?: unknown } | null)?.decision;
  expect(DECISIONS).toContain(decision);
  const reason = (answer as { reason?: unknown } | null)?.reason;
  if (typeof answer === 'object' && reason !== undefined) expect(typeof reason).toBe('string');
  return decision as string;
}

/**
 * A conformance suite for a custom {@link Guardrail}: registers vitest tests that check
 * it has a name, allows and denies the given calls (denials with a reason), answers a
 * well-formed verdict for odd calls instead of relying on the dispatcher to fail
 * closed, never changes the call it checks, and answers the same through
 * {@link createDispatcher}.
 *
 * @example
 * ```ts
 * import { testGuardrail } from '@tool-search/hooks/testing';
 *
 * testGuardrail(noSecretsGuardrail, {
 *   allows: [{ call: { name: 'write_file', arguments: { text: 'hello' } } }],
 *   denies: [{ call: { name: 'write_file', arguments: { text: '-----BEGIN PRIVATE KEY-----' } } }],
 * });
 * ```
 *
 * @param guardrail - the guardrail under test
 * @param options.allows - calls it must allow
 * @param options.denies - calls it must deny
 * @param options.name - the suite's name
 * @returns nothing; registers `describe`/`it` blocks
 * @throws nothing itself; failed checks fail the registered tests
 */
export function testGuardrail(guardrail: Guardrail, options: TestGuardrailOptions = {}): void {
  const allows = options.allows ?? [];
  const denies = options.denies ?? [];
  // Each check gets its own copy, so that a guardrail that changes calls cannot hide it
  // (or spoil the shared cases of other suites).
  const check = async (testCase: ConformanceCase, call = structuredClone(testCase.call)) =>
    guardrail.check(call, contextOf(testCase, new AbortController().signal));

  describe(options.name ?? `testGuardrail(${guardrail.name})`, () => {
    it('has a name', () => {
      expect(typeof guardrail.name).toBe('string');
      expect(guardrail.name.length).toBeGreaterThan(0);
    });

    it('allows the calls it should', async () => {
      for (const testCase of allows) expect(await check(testCase)).toEqual({ allow: true });
    });

    it('denies the calls it should, with a reason', async () => {
      for (const testCase of denies) {
        const verdict = await check(testCase);
        expectVerdict(verdict);
        expect(verdict.allow).toBe(false);
      }
    });

    it('answers a verdict for odd calls, without throwing', async () => {
      for (const call of ODD_CALLS) expectVerdict(await check({ call }));
    });

    it('does not change the calls it checks', async () => {
      for (const testCase of [...allows, ...denies, ...ODD_CALLS.map((call) => ({ call }))]) {
        const call = structuredClone(testCase.call);
        await check(testCase, call);
        expect(call).toEqual(testCase.call);
      }
    });

    it('answers the same through createDispatcher', async () => {
      const dispatch = createDispatcher({ execute: () => 'ran', guardrails: [guardrail] });
      const context = (testCase: ConformanceCase) => ({
        ...(testCase.tool ? { tool: testCase.tool } : {}),
        ...(testCase.sessionId !== undefined ? { sessionId: testCase.sessionId } : {}),
        via: testCase.via ?? 'direct',
      });
      for (const testCase of allows) {
        expect(await dispatch(testCase.call, context(testCase))).toMatchObject({ status: 'ok' });
      }
      for (const testCase of denies) {
        const verdict = await check(testCase);
        expect(await dispatch(testCase.call, context(testCase))).toMatchObject({
          status: 'denied',
          by: { kind: 'guardrail', name: guardrail.name },
          reason: (verdict as { reason: string }).reason,
        });
      }
    });
  });
}

/**
 * A conformance suite for a custom {@link ApprovalAdapter}: registers vitest tests
 * that check it answers every request with 'allow-once', 'allow-session' or 'deny'
 * (optionally with a string reason; or the decision a case expects), stops waiting
 * when the request's signal aborts (a test that never ends is a failure), and never
 * changes the request's call.
 *
 * @example
 * ```ts
 * import { testApprovalAdapter } from '@tool-search/hooks/testing';
 *
 * testApprovalAdapter(createSlackApproval({ client: fakeSlackThatAnswers('yes') }), {
 *   requests: [{ call: { name: 'delete_file', arguments: {} }, expect: 'allow-once' }],
 * });
 * ```
 *
 * @param adapter - the adapter under test
 * @param options.requests - requests it must answer, with the decisions expected
 * @param options.name - the suite's name
 * @returns nothing; registers `describe`/`it` blocks
 * @throws nothing itself; failed checks fail the registered tests
 */
export function testApprovalAdapter(
  adapter: ApprovalAdapter,
  options: TestApprovalAdapterOptions = {},
): void {
  const requests = options.requests ?? DEFAULT_REQUESTS;

  describe(options.name ?? `testApprovalAdapter(${adapter.name ?? 'approval'})`, () => {
    it('has a request method and, if named, a non-empty name', () => {
      expect(typeof adapter.request).toBe('function');
      if (adapter.name !== undefined) expect(adapter.name.length).toBeGreaterThan(0);
    });

    it('answers every request with a decision', async () => {
      for (const testCase of requests) {
        const answer = await adapter.request(
          requestOf(
            { ...testCase, call: structuredClone(testCase.call) },
            new AbortController().signal,
          ),
        );
        const decision = decisionOf(answer);
        const expected = (testCase as { expect?: ApprovalDecision }).expect;
        if (expected !== undefined) expect(decision).toBe(expected);
      }
    });

    it('stops waiting when the request is cancelled', async () => {
      for (const testCase of requests) {
        const controller = new AbortController();
        const request = requestOf(
          { ...testCase, call: structuredClone(testCase.call) },
          controller.signal,
        );
        const pending = Promise.resolve(adapter.request(request));
        await Promise.resolve();
        controller.abort();
        const settled = await pending.then(
          (answer) => ({ answer }),
          () => undefined,
        );
        if (settled) decisionOf(settled.answer);
      }
    });

    it("does not change the request's call", async () => {
      for (const testCase of requests) {
        const call = structuredClone(testCase.call);
        await adapter.request(requestOf({ ...testCase, call }, new AbortController().signal));
        expect(call).toEqual(testCase.call);
      }
    });
  });
}
