import { BRIDGE_TOOL_NAMES, TOOL_CALL } from '@tool-search/bridge';
import { TOOL_PROGRAM } from '@tool-search/code';
import type { McpTool } from '@tool-search/core';
import type { SessionState } from './session-state.js';
import type { StatelessCallParams } from './stateless-types.js';

/** Whether a call stands for one tool call (not a batch of several, not a program). */
export function asksOneCall(params: StatelessCallParams): boolean {
  if (params.name === TOOL_PROGRAM) return false;
  const calls = params.name === TOOL_CALL ? params.arguments?.['calls'] : undefined;
  return !Array.isArray(calls) || calls.length <= 1;
}

const TRAILING: readonly string[] = [...BRIDGE_TOOL_NAMES, TOOL_PROGRAM];

/** The listed tools in a deterministic order: by name, the bridge tools (and programs) last. */
export function listedTools(state: SessionState): McpTool[] {
  // Tools of the scope first (-1), then the bridge tools and programs in their own order.
  const rank = (name: string) => TRAILING.indexOf(name);
  return [...state.listed].sort((a, b) => {
    const byRank = rank(a.name) - rank(b.name);
    if (byRank !== 0) return byRank;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}
