import { describe, expect, it } from 'vitest';
import { normalizeApproval, normalizeCall, resolveDispatcherOptions } from './dispatch-input.js';
import type { ToolCallHook } from './types.js';

describe('normalizeCall', () => {
  it('copies a well-formed call and reads absent or null arguments as an empty object', () => {
    const input = { id: 'c', name: 'ping', arguments: { a: 1 }, extra: true };
    expect(normalizeCall(input)).toEqual({ call: { id: 'c', name: 'ping', arguments: { a: 1 } } });
    expect(normalizeCall({ name: 'ping', arguments: null })).toEqual({
      call: { name: 'ping', arguments: {} },
    });
    expect(normalizeCall({ name: 'ping', id: 7 })).toEqual({
      call: { name: 'ping', arguments: {} },
    });
  });

  it('says what is wrong with a malformed call', () => {
    expect(normalizeCall(null)).toEqual({
      problem: 'a call must be an object with a name and arguments',
    });
    expect(normalizeCall({ name: '' })).toEqual({
      problem: 'a call needs a non-empty string name',
    });
    expect(normalizeCall({ name: 'x', arguments: [1] })).toEqual({
      problem: "the arguments of 'x' must be an object",
    });
  });
});

describe('normalizeApproval', () => {
  it('reads the three decisions, bare or with a non-empty reason, and nothing else', () => {
    expect(normalizeApproval('allow-session')).toEqual({ decision: 'allow-session' });
    expect(normalizeApproval({ decision: 'deny', reason: 'no' })).toEqual({
      decision: 'deny',
      reason: 'no',
    });
    expect(normalizeApproval({ decision: 'deny', reason: '' })).toEqual({ decision: 'deny' });
    for (const unknown of ['yes', { decision: 'maybe' }, undefined, ['deny']]) {
      expect(normalizeApproval(unknown)).toBeUndefined();
    }
  });
});

describe('resolveDispatcherOptions', () => {
  it('fills in the default time limits and the approval name', () => {
    const config = resolveDispatcherOptions({
      execute: () => 'x',
      approval: { request: () => 'deny' },
      timeouts: { hook: 50 },
    });
    expect(config.timeouts).toEqual({
      guardrail: 10_000,
      hook: 50,
      approval: 300_000,
      execute: Number.POSITIVE_INFINITY,
    });
    expect(config.approvalName).toBe('approval');
  });

  it('keeps its own copies of the lists, with the hooks also in reverse', () => {
    const hooks: ToolCallHook[] = [{ name: 'a' }, { name: 'b' }];
    const config = resolveDispatcherOptions({ execute: () => 'x', hooks });
    hooks.push({ name: 'c' });
    expect(config.hooks.map((hook) => hook.name)).toEqual(['a', 'b']);
    expect(config.reversedHooks.map((hook) => hook.name)).toEqual(['b', 'a']);
  });

  it('throws invalid_argument on a timeout that is not a positive number', () => {
    expect(() =>
      resolveDispatcherOptions({ execute: () => 'x', timeouts: { approval: -1 } }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        message:
          'createDispatcher: timeouts.approval must be a positive number of milliseconds or Infinity, got -1.',
      }),
    );
  });
});
