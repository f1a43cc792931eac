import { BRIDGE_TOOL_NAMES } from '@tool-search/bridge';
import { TOOL_PROGRAM } from '@tool-search/code';
import { ToolSearchError } from '@tool-search/core';
import type { ToolSet } from 'ai';

/**
 * Refuses a tool set that already holds a name the bridge reserves (`tool_search`,
 * `tool_describe`, `tool_call`, and `tool_program` with programs on).
 *
 * @param tools - the user's tool set
 * @param withProgram - whether `tool_program` is reserved too
 * @returns nothing
 * @throws `ToolSearchError` `invalid_argument` naming the tool
 */
export function assertNoReservedNames(tools: ToolSet, withProgram: boolean): void {
  for (const name of withProgram ? [...BRIDGE_TOOL_NAMES, TOOL_PROGRAM] : BRIDGE_TOOL_NAMES) {
    if (Object.hasOwn(tools, name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `withToolSearch: the tool set already has a tool named '${name}', a name the bridge reserves. Rename it, or leave AI SDK 7's toolSearch() out of a tool set given to withToolSearch (use one route, not both).`,
        { data: { tool: name } },
      );
    }
  }
}
