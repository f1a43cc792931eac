// How a call came in, the caller's own context, and who denied: what the AI SDK adapter
// and the audit log rely on, through the real bridge where a route is involved.
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AuditRecord, createAuditHook } from './audit-hook.js';
import { createCallbackApproval } from './callback-approval.js';
import { createDispatcher } from './dispatcher.js';
import { createPolicyApproval } from './policy-approval.js';
import type { DispatchContext, Guardrail } from './types.js';

const deferred: ToolDefinition[] = Array.from({ length: 40 }, (_, index) => ({
  name: `crm_record_${index}`,
  description: `Update customer record number ${index} in the CRM with new contact details`,
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string' }, email: { type: 'string' } },
    required: ['id'],
  },
  source: 'mcp',
  toolset: 'mcp-crm',
}));

function audited() {
  const records: AuditRecord[] = [];
  const dispatch = createDispatcher({
    execute: (call) => ({ ran: call.name }),
    hooks: [createAuditHook((record) => void records.push(record))],
    resolveTool: (name) => deferred.find((tool) => tool.name === name),
  });
  return { records, dispatch };
}

describe('createDispatcher: how a call came in', () => {
  it("records a deferred tool called by its own name as via 'direct', and one through tool_call as via 'bridge'", async () => {
    const assembly = assembleTools({ tools: deferred, config: { enabled: 'on' } });
    expect(assembly.activated).toBe(true);
    const { records, dispatch } = audited();
    const args = { id: '7', email: 'a@example.com' };
    await handleBridgeCall(assembly, { name: 'crm_record_3', arguments: args }, dispatch);
    await handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name: 'crm_record_3', arguments: args } },
      dispatch,
    );
    expect(records.map(({ tool, via }) => ({ tool, via }))).toEqual([
      { tool: 'crm_record_3', via: 'direct' },
      { tool: 'crm_record_3', via: 'bridge' },
    ]);
  });

  it("hands guardrails and execute ctx.via, 'direct' when the caller says nothing", async () => {
    const seen: unknown[] = [];
    const dispatch = createDispatcher({
      execute: (_call, ctx) => void seen.push(['execute', ctx.via]),
      guardrails: [
        {
          name: 'look',
          check: (_call, ctx) => {
            seen.push(['guardrail', ctx.via]);
            return { allow: true };
          },
        },
      ],
    });
    await dispatch({ name: 'x', arguments: {} }, { via: 'bridge' });
    await dispatch({ name: 'x', arguments: {} });
    expect(seen).toEqual([
      ['guardrail', 'bridge'],
      ['execute', 'bridge'],
      ['guardrail', 'direct'],
      ['execute', 'direct'],
    ]);
  });
});

describe('createDispatcher: the caller context', () => {
  interface AiSdkContext {
    toolCallId: string;
    messages: readonly { role: string }[];
  }

  it('hands the caller’s own fields to guardrails, hooks and execute, typed', async () => {
    const seen: string[] = [];
    const guardrail: Guardrail<AiSdkContext> = {
      name: 'needs-messages',
      check: (_call, ctx) =>
        ctx.messages.length > 0 ? { allow: true } : { allow: false, reason: 'no conversation' },
    };
    const dispatch = createDispatcher<AiSdkContext>({
      guardrails: [guardrail],
      hooks: [
        { name: 'ids', beforeCall: (_call, ctx) => void seen.push(`hook ${ctx.toolCallId}`) },
      ],
      execute: (call, ctx) => {
        expectTypeOf(ctx.toolCallId).toEqualTypeOf<string>();
        seen.push(`execute ${ctx.toolCallId} ${ctx.messages.length}`);
        return call.name;
      },
    });
    const result = await dispatch(
      { name: 'lookup', arguments: {} },
      { toolCallId: 'call-1', messages: [{ role: 'user' }] },
    );
    expect(result).toMatchObject({ status: 'ok', result: 'lookup' });
    expect(seen).toEqual(['hook call-1', 'execute call-1 1']);
    const denied = await dispatch(
      { name: 'lookup', arguments: {} },
      { toolCallId: 'call-2', messages: [] },
    );
    expect(denied).toMatchObject({ status: 'denied', reason: 'no conversation' });
    expectTypeOf<Parameters<typeof guardrail.check>[1]>().toMatchTypeOf<DispatchContext>();
  });
});

describe('approval denials name the adapter that denied', () => {
  const call = { name: 'crm_record_1', arguments: { id: '1' } };

  it('reports a callback behind a policy as the callback, with the policy that asked it', async () => {
    const dispatch = createDispatcher({
      execute: () => 'ran',
      approval: createPolicyApproval({
        require: { tools: ['crm_*'] },
        ask: createCallbackApproval(() => false, { name: 'ui-prompt' }),
      }),
    });
    const result = await dispatch(call);
    expect(result).toMatchObject({
      status: 'denied',
      by: { kind: 'approval', name: 'ui-prompt', delegatedBy: 'policy' },
    });
  });

  it('reports a denial by the policy’s own rule as the policy', async () => {
    const dispatch = createDispatcher({
      execute: () => 'ran',
      approval: createPolicyApproval({ otherwise: 'deny' }),
    });
    const result = await dispatch(call);
    expect(result).toMatchObject({ status: 'denied', by: { kind: 'approval', name: 'policy' } });
    expect(result.status === 'denied' && result.by.delegatedBy).toBe(undefined);
  });

  it('names the asked adapter when it throws or answers nonsense, and still denies', async () => {
    for (const ask of [
      createCallbackApproval(
        () => {
          throw new Error('the UI is gone');
        },
        { name: 'ui-prompt' },
      ),
      { name: 'ui-prompt', request: () => 'maybe' as never },
    ]) {
      const dispatch = createDispatcher({
        execute: () => 'ran',
        approval: createPolicyApproval({ require: { tools: ['*'] }, ask }),
      });
      const result = await dispatch(call);
      expect(result).toMatchObject({
        status: 'denied',
        by: { name: 'ui-prompt', delegatedBy: 'policy' },
      });
    }
  });
});

describe('createDispatcher: calls from a program', () => {
  it("records via 'program' and the program's id, and hands both to guardrails", async () => {
    const records: AuditRecord[] = [];
    const seen: unknown[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ran',
      guardrails: [
        {
          name: 'look',
          check: (_call, ctx) => {
            seen.push([ctx.via, ctx.programId]);
            return { allow: true };
          },
        },
      ],
      hooks: [createAuditHook((record) => void records.push(record))],
    });
    await dispatch({ name: 'x', arguments: {} }, { via: 'program', programId: 'program-1' });
    expect(seen).toEqual([['program', 'program-1']]);
    expect(records).toMatchObject([{ tool: 'x', via: 'program', programId: 'program-1' }]);
  });
});
