import type { ToolDefinition } from '@tool-search/core';
import { sameTools } from '@tool-search/core/internal';
import type { GatewayPins } from '../config/schemas.js';
import { createPinMatcher } from './pin-matcher.js';
import { type NamedUpstreamTool, resolveToolNames, type UpstreamToolEntry } from './tool-names.js';

/** One exposed tool with the entry (server, upstream definition) behind it. */
export interface ExposedTool {
  /** The server and its definition, under the exposed name. */
  entry: NamedUpstreamTool;
  /** The definition as exposed (name, origin, pin). */
  tool: ToolDefinition;
}

/** The pool's exposed tool list: collision-free names, origins and pins. */
export interface ExposedTools {
  /**
   * Re-derives the list from the live servers' tools, in config order.
   * @returns whether the list changed
   */
  update(entries: readonly UpstreamToolEntry[]): boolean;
  /** The current list (the same array until it changes). */
  list(): ToolDefinition[];
  /** A tool by its exposed name. */
  get(name: string): ExposedTool | undefined;
  /** How many tools a server has in the list. */
  countOf(server: string): number;
  /** Replaces the pins (a reload of the config); the next `update` applies them. */
  setPins(pins: Partial<GatewayPins> | undefined): void;
}

/**
 * Creates the exposed tool list of a pool: names from {@link resolveToolNames}, the
 * origin from the config's server name, `alwaysLoad` from the pins (or a trusted
 * server's own). The exposed object of a definition is kept while nothing about it changes.
 *
 * @param pins - the config's pins
 * @returns the list, empty until the first update
 * @throws nothing
 */
export function createExposedTools(pins: Partial<GatewayPins> | undefined): ExposedTools {
  let pinnedServers = new Set(pins?.servers ?? []);
  let pinnedTool = createPinMatcher(pins?.tools ?? []);
  const isPinned = (server: string, tool: ToolDefinition, name: string) =>
    pinnedServers.has(server) || pinnedTool(name, { server, name: tool.name });

  let named: NamedUpstreamTool[] = [];
  let exposed: ToolDefinition[] = [];
  // The exposed object of each upstream definition, reused while nothing about it changes.
  const exposedOf = new WeakMap<ToolDefinition, ToolDefinition>();
  let index = new Map<string, ExposedTool>();

  return {
    update(entries) {
      named = resolveToolNames(entries);
      index = new Map();
      const next = named.map((entry) => {
        const pinned =
          entry.tool.alwaysLoad === true || isPinned(entry.server, entry.tool, entry.name);
        let tool = exposedOf.get(entry.tool);
        if (
          tool === undefined ||
          tool.name !== entry.name ||
          (tool.alwaysLoad === true) !== pinned
        ) {
          // The origin is the pool's to say, from the config's server name: policies
          // decide on it, whatever the exposed name becomes.
          tool = {
            ...entry.tool,
            name: entry.name,
            origin: { server: entry.server, name: entry.tool.name },
          };
          if (pinned) tool.alwaysLoad = true;
          exposedOf.set(entry.tool, tool);
        }
        index.set(entry.name, { entry, tool });
        return tool;
      });
      if (sameTools(exposed, next)) return false;
      exposed = next;
      return true;
    },
    list: () => exposed,
    get: (name) => index.get(name),
    countOf: (server) => named.filter((entry) => entry.server === server).length,
    setPins(next) {
      pinnedServers = new Set(next?.servers ?? []);
      pinnedTool = createPinMatcher(next?.tools ?? []);
    },
  };
}
