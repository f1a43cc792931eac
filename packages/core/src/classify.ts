import { toolLoadingOf } from './tool-loading.js';
import type { ToolsetLoading } from './tool-loading-kinds.js';
import type { ToolDefinition } from './types.js';

/** The name of the bridge tool that searches the deferred tools. */
export const TOOL_SEARCH = 'tool_search';
/** The name of the bridge tool that loads one deferred tool's schema. */
export const TOOL_DESCRIBE = 'tool_describe';
/** The name of the bridge tool that calls a deferred tool. */
export const TOOL_CALL = 'tool_call';
/** The three reserved bridge tool names. */
export const BRIDGE_TOOL_NAMES: ReadonlySet<string> = new Set([
  TOOL_SEARCH,
  TOOL_DESCRIBE,
  TOOL_CALL,
]);

/**
 * Whether a name is one of the reserved bridge tool names.
 *
 * @param name - a tool name
 * @returns true for `tool_search`, `tool_describe` and `tool_call`
 * @throws nothing
 */
export function isBridgeToolName(name: string): boolean {
  return BRIDGE_TOOL_NAMES.has(name);
}

/**
 * Whether a tool may be deferred behind the bridge: only `mcp` and `plugin` tools
 * that are not pinned with `alwaysLoad`.
 *
 * @param tool - the tool
 * @returns true when the tool may be deferred
 * @throws nothing
 */
export function isDeferrable(tool: ToolDefinition): boolean {
  return (tool.source === 'mcp' || tool.source === 'plugin') && tool.alwaysLoad !== true;
}

/** Options of {@link classifyTools}. */
export interface ClassifyOptions {
  /** Names that stay visible whatever their source (pins from config). */
  pinned?: Iterable<string>;
  /** Loading by toolset: the tools of an `eager` toolset stay visible. */
  loading?: ToolsetLoading;
}

/**
 * Splits tools into those the model always sees and those that may be deferred.
 * Bridge tools in the input are dropped, so that assembling an assembled list is
 * idempotent. `source: 'core'`, an absent source and `alwaysLoad` stay visible;
 * `mcp` and `plugin` tools are deferrable, unless their toolset's `loading` is `eager`.
 * Order is kept in both lists.
 *
 * @param tools - the session's tools
 * @param options.pinned - extra names that stay visible
 * @param options.loading - loading by toolset (`eager` toolsets stay visible)
 * @returns `{ visible, deferrable }`
 * @throws nothing
 */
export function classifyTools(
  tools: readonly ToolDefinition[],
  options: ClassifyOptions = {},
): { visible: ToolDefinition[]; deferrable: ToolDefinition[] } {
  const pinned = options.pinned ? new Set(options.pinned) : undefined;
  const visible: ToolDefinition[] = [];
  const deferrable: ToolDefinition[] = [];
  for (const tool of tools) {
    if (isBridgeToolName(tool.name)) continue;
    if (
      isDeferrable(tool) &&
      !pinned?.has(tool.name) &&
      toolLoadingOf(tool, options.loading) !== 'eager'
    ) {
      deferrable.push(tool);
    } else visible.push(tool);
  }
  return { visible, deferrable };
}
