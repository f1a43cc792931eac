import { describe, expect, it, vi } from 'vitest';
import { call, configOf, stateOf, tool } from './__fixtures__/call-state.js';
import { checkCall } from './step-start.js';

describe('checkCall', () => {
  it('answers a malformed call with an invalid_argument error that names what is wrong', async () => {
    const state = stateOf({}, {}, { name: 'x', arguments: [1] });
    const next = await checkCall(state, configOf());
    expect(next.result).toEqual({
      status: 'error',
      call: { name: 'x', arguments: {} },
      error: {
        code: 'invalid_argument',
        message: "Malformed tool call: the arguments of 'x' must be an object.",
      },
    });
  });

  it('cancels a call whose signal aborted before it started', async () => {
    const next = await checkCall(stateOf({}, { signal: AbortSignal.abort() }), configOf());
    expect(next.result).toEqual({
      status: 'cancelled',
      call,
      reason: "The call to 'memory_delete_entities' was cancelled before it ran.",
    });
  });

  it('looks the tool up when the context carries none, and keeps a given one', async () => {
    const resolveTool = vi.fn(() => tool);
    const looked = await checkCall(stateOf(), configOf({ resolveTool }));
    expect(looked.tool).toBe(tool);
    expect(looked.result).toBeUndefined();
    const given = { ...tool, toolset: 'given' };
    const kept = await checkCall(stateOf({}, { tool: given }), configOf({ resolveTool }));
    expect(kept.tool).toBe(given);
    expect(resolveTool).toHaveBeenCalledTimes(1);
  });

  it('answers tool_lookup_failed when resolveTool throws', async () => {
    const resolveTool = () => {
      throw new Error('registry offline');
    };
    const next = await checkCall(stateOf(), configOf({ resolveTool }));
    expect(next.result).toMatchObject({
      status: 'error',
      call,
      error: {
        code: 'tool_lookup_failed',
        message:
          "Could not look up the tool 'memory_delete_entities': registry offline. It was not called.",
      },
    });
  });
});
