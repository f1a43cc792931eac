import { describe, expect, it, vi } from 'vitest';
import { call, configOf, stateOf, tool } from './__fixtures__/call-state.js';
import { recheckGuardrails, runGuardrails } from './step-guardrails.js';
import type { DispatchContext, Guardrail } from './types.js';

const allow: Guardrail = { name: 'allow', check: () => ({ allow: true }) };

describe('runGuardrails', () => {
  it('returns the state unchanged when every guardrail allows the call', async () => {
    const state = stateOf();
    expect(await runGuardrails(state, configOf({ guardrails: [allow, allow] }))).toBe(state);
  });

  it('denies when a guardrail throws, names it, and asks no later guardrail', async () => {
    const later = vi.fn(() => ({ allow: true }) as const);
    const throwing: Guardrail = {
      name: 'flaky',
      check: () => {
        throw new Error('database unreachable');
      },
    };
    const config = configOf({ guardrails: [throwing, { name: 'later', check: later }] });
    const next = await runGuardrails(stateOf(), config);
    expect(next.result).toEqual({
      status: 'denied',
      call,
      by: { kind: 'guardrail', name: 'flaky' },
      reason:
        "Guardrail 'flaky' failed: database unreachable, so the call to 'memory_delete_entities' is denied (guardrails fail closed).",
    });
    expect(later).not.toHaveBeenCalled();
  });

  it("checks the state's current call and shows its current tool in the context", async () => {
    const seen: [string, DispatchContext][] = [];
    const config = configOf({
      guardrails: [
        {
          name: 'g',
          check: (checked, ctx) => {
            seen.push([checked.name, ctx]);
            return { allow: true };
          },
        },
      ],
    });
    const rewritten = { name: 'renamed', arguments: {} };
    await runGuardrails(stateOf({ call: rewritten, tool }, { via: 'bridge' }), config);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toBe('renamed');
    expect(seen[0]?.[1]).toMatchObject({ tool, via: 'bridge' });
  });
});

describe('recheckGuardrails', () => {
  const noDelete: Guardrail = {
    name: 'no-delete',
    check: (checked) =>
      checked.name.includes('delete') ? { allow: false, reason: 'no deleting' } : { allow: true },
  };

  it('checks a rewritten call again and denies what a guardrail refuses', async () => {
    const state = stateOf({ rewritten: true });
    expect((await recheckGuardrails(state, configOf({ guardrails: [noDelete] }))).result).toEqual({
      status: 'denied',
      call,
      by: { kind: 'guardrail', name: 'no-delete' },
      reason: 'no deleting',
    });
  });

  it('asks no guardrail when nothing was rewritten', async () => {
    const check = vi.fn(() => ({ allow: false, reason: 'no' }) as const);
    const state = stateOf();
    expect(await recheckGuardrails(state, configOf({ guardrails: [{ name: 'g', check }] }))).toBe(
      state,
    );
    expect(check).not.toHaveBeenCalled();
  });
});
