import type { ToolCall } from '@tool-search/core';
import { vi } from 'vitest';
import { assembleTools } from '../assemble.js';
import type { BridgeDispatchContext } from '../bridge-results.js';
import { forcedOn, sessionTools } from './tools.js';

/** A fresh assembly of the session tools (tool search forced on unless `config` says). */
export const fresh = (config: Record<string, unknown> = forcedOn) =>
  assembleTools({ tools: sessionTools, config });

/** A dispatcher that records what it is handed and answers `{ ok, ran }`. */
export function recorder() {
  const calls: { call: ToolCall; context: BridgeDispatchContext }[] = [];
  const dispatch = vi.fn((call: ToolCall, context: BridgeDispatchContext) => {
    calls.push({ call, context });
    return { ok: true, ran: call.name };
  });
  return { calls, dispatch };
}

/** A `tool_search` call. */
export const search = (args: unknown) => ({ name: 'tool_search', arguments: args });
/** A `tool_describe` call. */
export const describeCall = (args: unknown) => ({ name: 'tool_describe', arguments: args });
