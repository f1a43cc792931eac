import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { type CallState, startCall } from '../call-state.js';
import {
  type DispatchConfig,
  type DispatcherOptions,
  resolveDispatcherOptions,
} from '../dispatch-input.js';
import type { ToolCallContext } from '../types.js';

/** A call for the step tests. */
export const call: ToolCall = { id: 'call-1', name: 'memory_delete_entities', arguments: { n: 1 } };

/** The definition of {@link call}: the memory server's delete tool, renamed on a collision. */
export const tool: ToolDefinition = {
  name: 'memory_delete_entities',
  inputSchema: {},
  source: 'mcp',
  toolset: 'mcp-memory',
  origin: { server: 'memory', name: 'delete_entities' },
};

/** A fresh state of `input`, with `changes` laid over it (a hand-built state). */
export function stateOf(
  changes: Partial<CallState> = {},
  context: ToolCallContext = {},
  input: unknown = call,
): CallState {
  return { ...startCall(input, context), ...changes };
}

/** The configuration of a dispatcher with these options (execute answers 'done'). */
export function configOf(options: Partial<DispatcherOptions> = {}): DispatchConfig {
  return resolveDispatcherOptions({ execute: () => 'done', ...options });
}

/** A promise that never settles. */
export const hang = (): Promise<never> => new Promise<never>(() => {});
