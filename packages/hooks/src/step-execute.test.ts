import { type ToolCall, ToolSearchError } from '@tool-search/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configOf, hang, stateOf, tool } from './__fixtures__/call-state.js';
import { runExecute } from './step-execute.js';
import type { DispatchContext } from './types.js';

// A tool may throw the code of any package that registered one (mcp's pool throws
// `upstream_failed`); the dispatcher passes it through unchanged.
declare module '@tool-search/core' {
  interface ToolSearchErrorCodeRegistry {
    upstream_failed: true;
  }
}

describe('runExecute', () => {
  it('keeps the value for the afterCall hooks without deciding the call', async () => {
    const execute = vi.fn((_call: ToolCall, _ctx: DispatchContext) => 'done');
    const next = await runExecute(stateOf({ tool }), configOf({ execute }));
    expect(next.executed).toBe(true);
    expect(next.execution).toEqual({ kind: 'value', value: 'done' });
    expect(next.result).toBeUndefined();
    expect(execute.mock.calls[0]?.[1]).toMatchObject({ tool, via: 'direct' });
  });

  it('keeps a throw as a failure, with the code of a thrown ToolSearchError', async () => {
    const thrown = new ToolSearchError('upstream_failed', "Upstream 'memory' is down");
    const next = await runExecute(
      stateOf(),
      configOf({
        execute: () => {
          throw thrown;
        },
      }),
    );
    expect(next.execution).toMatchObject({
      kind: 'failed',
      thrown,
      error: {
        code: 'upstream_failed',
        message: "Tool 'memory_delete_entities' failed: Upstream 'memory' is down",
      },
    });
  });

  it('does not start the tool when the signal aborted before it', async () => {
    const execute = vi.fn();
    const next = await runExecute(
      stateOf({}, { signal: AbortSignal.abort() }),
      configOf({ execute }),
    );
    expect(next.executed).toBe(false);
    expect(next.result).toMatchObject({ status: 'cancelled' });
    expect(execute).not.toHaveBeenCalled();
  });

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('aborts a tool that runs out of time and keeps a tool_timeout failure', async () => {
      let signal: AbortSignal | undefined;
      const pending = runExecute(
        stateOf(),
        configOf({
          execute: (_call, ctx) => {
            signal = ctx.signal;
            return hang();
          },
          timeouts: { execute: 500 },
        }),
      );
      await vi.advanceTimersByTimeAsync(500);
      const next = await pending;
      expect(next.execution).toMatchObject({
        kind: 'failed',
        error: {
          code: 'tool_timeout',
          message: "Tool 'memory_delete_entities' did not finish within 500 ms and was aborted.",
        },
      });
      expect(signal?.aborted).toBe(true);
    });
  });
});
