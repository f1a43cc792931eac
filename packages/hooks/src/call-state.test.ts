import { describe, expect, it } from 'vitest';
import { call, stateOf, tool } from './__fixtures__/call-state.js';
import { contextFor, deny, startCall, warn } from './call-state.js';

describe('startCall', () => {
  it('starts from the received call, the context tool and a signal that never aborts', () => {
    const state = startCall(call, { tool, sessionId: 's' });
    expect(state).toMatchObject({
      requested: { call },
      call,
      tool,
      rewritten: false,
      executed: false,
    });
    expect(state.signal.aborted).toBe(false);
    expect(state.warnings).toEqual([]);
    expect(state.result).toBeUndefined();
  });

  it('keeps the problem of a malformed call and a placeholder with its name', () => {
    const state = startCall({ name: 'x', arguments: 'json' }, {});
    expect(state.requested).toEqual({ problem: "the arguments of 'x' must be an object" });
    expect(state.call).toEqual({ name: 'x', arguments: {} });
  });
});

describe('contextFor', () => {
  it("gives the caller's context with via, the state's tool and the step's signal", () => {
    const signal = new AbortController().signal;
    const context = contextFor(stateOf({ tool }, { sessionId: 's', tool: undefined }), signal);
    expect(context).toEqual({ sessionId: 's', via: 'direct', tool, signal });
  });
});

describe('deny and warn', () => {
  it('return a next state and leave the given one as it was', () => {
    const state = stateOf();
    const denied = warn(deny(state, { kind: 'hook', name: 'h' }, 'no'), 'w');
    expect(denied.result).toEqual({
      status: 'denied',
      call,
      by: { kind: 'hook', name: 'h' },
      reason: 'no',
    });
    expect(denied.warnings).toEqual(['w']);
    expect(state.result).toBeUndefined();
    expect(state.warnings).toEqual([]);
  });
});
