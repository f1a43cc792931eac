import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { type AuditRecord, createAuditHook } from './audit-hook.js';
import { createDispatcher } from './dispatcher.js';
import { createToolPolicyGuardrail } from './tool-policy-guardrail.js';

const call: ToolCall = {
  id: 'c1',
  name: 'github_create_issue',
  arguments: { title: 'Bug', token: 'secret' },
};
const tool: ToolDefinition = {
  name: 'github_create_issue',
  inputSchema: {},
  toolset: 'mcp-github',
};

describe('createAuditHook', () => {
  it('writes one record per call that ran, with the real name, via, decision and duration', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ok',
      hooks: [createAuditHook((record) => void records.push(record))],
      approval: { request: () => 'allow-once' },
    });
    await dispatch(call, { sessionId: 's1', via: 'bridge' });
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({
      tool: 'github_create_issue',
      callId: 'c1',
      sessionId: 's1',
      via: 'bridge',
      decision: 'allowed',
      status: 'ok',
      approval: 'allow-once',
      approvalAnswer: { at: expect.stringMatching(/^\d{4}-/), waitMs: expect.any(Number) },
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      durationMs: expect.any(Number),
    });
    expect(records[0]?.arguments).toBeUndefined();
  });

  it('records calls a guardrail denied, which no beforeCall hook ever sees', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ok',
      guardrails: [createToolPolicyGuardrail({ deny: ['github_*'] })],
      hooks: [createAuditHook((record) => void records.push(record))],
    });
    await dispatch(call);
    expect(records).toEqual([
      expect.objectContaining({
        tool: 'github_create_issue',
        via: 'direct',
        decision: 'denied',
        status: 'denied',
        deniedBy: { kind: 'guardrail', name: 'tool-policy' },
        reason: "The tool 'github_create_issue' is denied by policy.",
      }),
    ]);
  });

  it('records approval refusals, failures, cancellations and malformed calls', async () => {
    const records: AuditRecord[] = [];
    const audit = createAuditHook((record) => void records.push(record));
    const refused = createDispatcher({
      execute: () => 'ok',
      hooks: [audit],
      approval: { request: () => 'deny' },
    });
    const failing = createDispatcher({
      execute: () => {
        throw new Error('rate limited');
      },
      hooks: [audit],
    });
    await refused(call);
    await failing(call);
    await failing(call, { signal: AbortSignal.abort() });
    await failing({ name: '' } as ToolCall);
    expect(
      records.map(({ decision, status, deniedBy, error, approval }) => ({
        decision,
        status,
        deniedBy,
        error,
        approval,
      })),
    ).toEqual([
      {
        decision: 'denied',
        status: 'denied',
        deniedBy: { kind: 'approval', name: 'approval' },
        error: undefined,
        approval: 'deny',
      },
      {
        decision: 'allowed',
        status: 'error',
        deniedBy: undefined,
        error: "Tool 'github_create_issue' failed: rate limited",
        approval: undefined,
      },
      {
        decision: 'cancelled',
        status: 'cancelled',
        deniedBy: undefined,
        error: undefined,
        approval: undefined,
      },
      {
        decision: 'invalid',
        status: 'error',
        deniedBy: undefined,
        error: 'Malformed tool call: a call needs a non-empty string name.',
        approval: undefined,
      },
    ]);
  });

  it('names the requested tool when a hook renamed the call, and includes arguments on request', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ok',
      hooks: [
        createAuditHook((record) => void records.push(record), { includeArguments: true }),
        {
          name: 'alias',
          beforeCall: (seen) => ({ call: { ...seen, name: 'github_issue_write' } }),
        },
      ],
    });
    await dispatch(call, { tool });
    expect(records[0]).toMatchObject({
      tool: 'github_issue_write',
      requestedTool: 'github_create_issue',
      arguments: call.arguments,
    });
  });

  it('records a result the tool answered as an error, through toolErrorOf, with the dispatch status', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: (seen) =>
        seen.arguments['title'] === 'Bug' ? { isError: true, text: 'rate limited' } : 'fine',
      hooks: [
        createAuditHook((record) => void records.push(record), {
          toolErrorOf: (result) =>
            (result as { isError?: boolean }).isError === true
              ? (result as { text: string }).text
              : undefined,
        }),
      ],
    });
    await dispatch(call, { tool });
    await dispatch({ ...call, arguments: { title: 'Fine' } }, { tool });
    expect(records.map(({ status, toolError }) => ({ status, toolError }))).toEqual([
      { status: 'ok', toolError: 'rate limited' },
      { status: 'ok', toolError: undefined },
    ]);
  });

  it('records who answered the approval, when, and the wait apart from the rest', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ok',
      approval: {
        request: async () => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return { decision: 'allow-once', answeredBy: 'profile:ops' };
        },
      },
      hooks: [createAuditHook((record) => void records.push(record))],
    });
    await dispatch(call, { tool });
    const answer = records[0]?.approvalAnswer;
    expect(answer).toMatchObject({ by: 'profile:ops', at: expect.any(String) });
    expect(answer!.waitMs).toBeGreaterThanOrEqual(25);
    expect(records[0]!.durationMs).toBeGreaterThanOrEqual(answer!.waitMs - 1);
    expect(Date.parse(answer!.at)).not.toBeNaN();
  });

  it('keeps what describeCall renders of the final call and its result, only with it', async () => {
    const records: AuditRecord[] = [];
    const plain: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'done',
      hooks: [
        createAuditHook((record) => void records.push(record), {
          describeCall: (seen, result) => ({
            shownArguments: JSON.stringify(seen.arguments),
            ...(result === undefined ? {} : { resultExcerpt: String(result) }),
          }),
        }),
        createAuditHook((record) => void plain.push(record)),
      ],
    });
    await dispatch(call, { tool });
    expect(records[0]).toMatchObject({
      shownArguments: JSON.stringify(call.arguments),
      resultExcerpt: 'done',
    });
    expect(plain[0]).not.toHaveProperty('shownArguments');
    expect(plain[0]).not.toHaveProperty('resultExcerpt');
  });

  it('never loses the result when the sink fails', async () => {
    const dispatch = createDispatcher({
      execute: () => 'ok',
      hooks: [
        createAuditHook(() => {
          throw new Error('disk full');
        }),
      ],
    });
    expect(await dispatch(call)).toEqual({
      status: 'ok',
      call,
      result: 'ok',
      warnings: ["onSettled hook 'audit' failed: disk full; it was skipped."],
    });
  });

  it('throws when the sink is not a function', () => {
    expect(() => createAuditHook('log' as unknown as () => void)).toThrow(
      /sink must be a function/,
    );
  });

  it('records a refusal made before dispatch to the same sink, without arguments', async () => {
    const records: AuditRecord[] = [];
    const hook = createAuditHook(
      (record) => {
        records.push(record);
      },
      { includeArguments: true },
    );
    await hook.recordRefusal({
      tool: 'jira_create_ticket',
      reason: "'jira_create_ticket' is not available in this session.",
      via: 'bridge',
      callId: 'c1',
      sessionId: 's1',
    });
    expect(records).toEqual([
      {
        tool: 'jira_create_ticket',
        via: 'bridge',
        decision: 'denied',
        status: 'denied',
        deniedBy: { kind: 'scope', name: 'session-scope' },
        reason: "'jira_create_ticket' is not available in this session.",
        callId: 'c1',
        sessionId: 's1',
        startedAt: expect.any(String),
        durationMs: 0,
      },
    ]);
  });

  it('waits for an async sink', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ok',
      hooks: [
        createAuditHook(async (record) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          records.push(record);
        }),
      ],
    });
    await dispatch(call);
    expect(records).toHaveLength(1);
  });
});
