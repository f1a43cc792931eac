import type { AnthropicToolOutput, ToolDefinition } from '@tool-search/core';
import { ANTHROPIC_TOOL_NAME_RULES, createToolNameMap, toAnthropicTool } from '@tool-search/core';
import { BRIDGE_TOOL_NAMES } from '@tool-search/core/internal';
import type { PreparedTools } from './plan.js';

/** The betas of append-only tool loading: tool changes in `messages`, and tools defined there by value. */
export const ANTHROPIC_TOOL_CHANGE_BETAS = [
  'mid-conversation-tool-changes-2026-07-01',
  'inline-tools-2026-09-15',
] as const;

/**
 * A `tool_addition` block (`BetaRequestToolAdditionBlock`): a tool made available from this
 * point of the conversation on, defined inline (`tool_definition`) or by reference.
 */
export interface AnthropicToolAddition {
  type: 'tool_addition';
  tool:
    | { type: 'tool_definition'; definition: AnthropicToolOutput }
    | { type: 'tool_reference'; name: string };
}

/** A `tool_removal` block (`BetaRequestToolRemovalBlock`): a tool withdrawn from this point on. */
export interface AnthropicToolRemoval {
  type: 'tool_removal';
  tool: { type: 'tool_reference'; name: string };
}

/**
 * The append-only memory of one conversation's tools: what the first request's `tools`
 * sent (it never changes after that, so thinking blocks and the prompt cache stay valid),
 * and what later turns added or removed in `messages`.
 */
export interface AnthropicToolLog {
  /**
   * The blocks that bring the conversation's tools up to `tools`, the session's current
   * (scoped) list: a `tool_addition` with the inline definition for each tool never defined
   * in the conversation, a `tool_addition` by reference for one that was removed and is
   * back (with the definition it had), a `tool_removal` for each tool held that is gone. Put them at the start of the next user message; the request's `tools` stays
   * as the first request sent it.
   * @param tools - the session's current tools
   * @returns the blocks, empty when nothing changed
   */
  changes(tools: readonly ToolDefinition[]): (AnthropicToolAddition | AnthropicToolRemoval)[];
  /**
   * The session's name of a tool the model called by its provider name, for the tools of
   * the first request and those added since.
   * @param providerName - the `tool_use` block's name
   */
  fromProvider(providerName: string): string | undefined;
}

/**
 * Creates the append-only tool log of a conversation on Anthropic, from the preparation of
 * its first request. On the newest models (preserved thinking, by default for accounts
 * since 2026-08-31), a request whose `tools`, `system` or earlier messages changed after a
 * thinking block is refused (400) or loses the thinking: so when the session's tools
 * change mid-conversation (an MCP server connects or leaves), keep sending the first
 * request's `tools` and put `log.changes(current)` into the next user message, with the
 * betas of {@link ANTHROPIC_TOOL_CHANGE_BETAS}. Tools added this way are loaded, not
 * deferred: our search answers over the first request's catalog. Without the betas, keep
 * `tools` fixed another way: the bridge, or native deferral over the full list.
 *
 * @param prepared - the preparation of the conversation's first request
 * @returns the log
 * @throws nothing
 */
export function createAnthropicToolLog(
  prepared: Pick<PreparedTools<unknown>, 'names' | 'deferred' | 'tools' | 'searchToolName'>,
): AnthropicToolLog {
  // Session names the conversation holds, with their provider names: never the search or
  // bridge tools, which are the preparation's own.
  const own = new Set<string>([...BRIDGE_TOOL_NAMES, prepared.searchToolName ?? '']);
  const held = new Map<string, string>();
  for (const tool of prepared.tools as { name?: string; type?: string }[]) {
    const name = typeof tool.name === 'string' ? prepared.names.fromProvider(tool.name) : undefined;
    if (name !== undefined && tool.type === undefined && !own.has(name))
      held.set(name, tool.name as string);
  }
  for (const name of prepared.deferred) held.set(name, prepared.names.toProvider(name));
  // Every tool the conversation ever defined (in `tools` or by an addition): one that comes
  // back after a removal is added again by reference, since its name is still defined.
  const defined = new Map(held);
  const taken = new Set(prepared.tools.map((tool) => (tool as { name?: string }).name));
  const fromProvider = new Map<string, string>();
  return {
    changes(tools) {
      const current = new Map(tools.map((tool) => [tool.name, tool]));
      const blocks: (AnthropicToolAddition | AnthropicToolRemoval)[] = [];
      for (const [name, providerName] of [...held]) {
        if (current.has(name)) continue;
        held.delete(name);
        blocks.push({ type: 'tool_removal', tool: { type: 'tool_reference', name: providerName } });
      }
      for (const tool of tools) {
        if (held.has(tool.name)) continue;
        const earlier = defined.get(tool.name);
        if (earlier !== undefined) {
          held.set(tool.name, earlier);
          blocks.push({ type: 'tool_addition', tool: { type: 'tool_reference', name: earlier } });
          continue;
        }
        // A new tool gets a provider name no other tool of the conversation holds.
        const others = [...taken].filter((name): name is string => name !== undefined);
        const map = createToolNameMap([...others, tool.name], ANTHROPIC_TOOL_NAME_RULES);
        const providerName = map.toProvider(tool.name);
        taken.add(providerName);
        fromProvider.set(providerName, tool.name);
        defined.set(tool.name, providerName);
        held.set(tool.name, providerName);
        const definition: AnthropicToolOutput = toAnthropicTool({ ...tool, name: providerName });
        blocks.push({ type: 'tool_addition', tool: { type: 'tool_definition', definition } });
      }
      return blocks;
    },
    fromProvider: (providerName) =>
      fromProvider.get(providerName) ?? prepared.names.fromProvider(providerName),
  };
}
