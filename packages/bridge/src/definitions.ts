import type { ToolDefinition } from '@tool-search/core';
import { TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/core/internal';
import { MAX_DESCRIBE_NAMES } from './batch-limits.js';
import { callSchema, describeSchema, searchSchema } from './bridge-schemas.js';
import { type SearchableToolset, toolsetListing } from './toolset-listing.js';

/** Options of {@link createBridgeTools}. */
export interface BridgeToolsOptions {
  /**
   * How many tools are deferred behind the bridge. The `tool_search` description
   * states it, unless `stableDescriptions` is set. Ignored when absent.
   */
  deferredCount?: number;
  /**
   * Keep every byte of the three definitions independent of the catalog and the
   * config, so that a provider's prompt cache of the tool array survives toolsets
   * being enabled, disabled or reconnected. The price: the model is not told how
   * many tools it can find, which toolsets it can search, nor the default and
   * maximum `limit`.
   * @defaultValue false
   */
  stableDescriptions?: boolean;
  /** The default `limit` of `tool_search`, stated in its schema unless `stableDescriptions`. */
  searchDefaultLimit?: number;
  /** The most hits `tool_search` returns, stated in its schema unless `stableDescriptions`. */
  maxSearchLimit?: number;
  /**
   * Schemas that OpenAI's strict mode accepts (`strict: true` on a function tool):
   * every property required (an optional one as `[type, 'null']`),
   * `additionalProperties: false` everywhere, and `tool_call`'s `arguments` as JSON
   * text instead of an open object (the bridge parses it). Bounds are stated in the
   * descriptions instead of keywords. The bridge answers both forms alike.
   * @defaultValue false
   */
  strict?: boolean;
  /**
   * The toolsets (or servers) behind the bridge, listed in the `tool_search`
   * description (name, tool count and one line each, at most 20) so the model knows
   * what it can find. Left out with `stableDescriptions`.
   */
  toolsets?: readonly SearchableToolset[];
}

const SEQUENCE =
  `Use ${TOOL_SEARCH} to find a tool, ${TOOL_DESCRIBE} to load its parameters, ` +
  `then ${TOOL_CALL} to run it. Tools already in your tools list need no search: call them directly.`;

function searchSentence(count: number | undefined, stable: boolean): string {
  if (stable || count === undefined || !Number.isFinite(count) || count < 0) {
    return 'Search for tools that are not in your tools list.';
  }
  const n = Math.floor(count);
  const noun = n === 1 ? 'tool that is' : 'tools that are';
  return `Search the ${n} ${noun} not in your tools list.`;
}

function limitDescription(options: BridgeToolsOptions): string {
  const parts = ['The most matches to return.'];
  if (!options.stableDescriptions) {
    if (options.searchDefaultLimit !== undefined) {
      parts.push(`Default ${options.searchDefaultLimit}.`);
    }
    if (options.maxSearchLimit !== undefined) parts.push(`At most ${options.maxSearchLimit}.`);
  }
  return parts.join(' ');
}

/**
 * Creates the three bridge tool definitions, in the order `tool_search`,
 * `tool_describe`, `tool_call`. Their descriptions tell the model the sequence
 * (search → describe → call), that tools already in its list need no search, and
 * that `tool_call` runs policy, hooks and approvals exactly as for a directly
 * listed tool. Each takes a batch too: `queries`, `names`, `calls`.
 *
 * By default the `tool_search` description states how many tools are deferred and
 * lists the searchable `toolsets`, which helps the model decide whether searching is
 * worth a turn, but changes the tool array (and so invalidates a provider's prompt
 * cache) whenever they change. With `stableDescriptions: true` every byte of the three
 * definitions is a constant (one constant per `strict` setting).
 *
 * @example
 * ```ts
 * const [search, describe, call] = createBridgeTools({ deferredCount: 120 });
 * search.description; // 'Search the 120 tools that are not in your tools list. ...'
 * ```
 *
 * @param options - see {@link BridgeToolsOptions}
 * @returns fresh `[tool_search, tool_describe, tool_call]` definitions (`source: 'core'`)
 * @throws nothing
 */
export function createBridgeTools(options: BridgeToolsOptions = {}): ToolDefinition[] {
  return bridgeToolsWithListing(
    options,
    options.stableDescriptions === true ? '' : toolsetListing(options.toolsets ?? []),
  );
}

/**
 * {@link createBridgeTools} with the toolsets paragraph already made (`options.toolsets`
 * is ignored): the assembly remembers its listing rather than summarizing every toolset.
 *
 * @param options - see {@link BridgeToolsOptions}
 * @param listing - the toolsets paragraph (`''` with `stableDescriptions`)
 * @returns fresh `[tool_search, tool_describe, tool_call]` definitions
 * @throws nothing
 * @internal
 */
export function bridgeToolsWithListing(
  options: BridgeToolsOptions,
  listing: string,
): ToolDefinition[] {
  const stable = options.stableDescriptions === true;
  const schemaOptions = {
    strict: options.strict === true,
    limitDescription: limitDescription(options),
    ...(stable || options.maxSearchLimit === undefined
      ? {}
      : { maxSearchLimit: options.maxSearchLimit }),
  };

  const search: ToolDefinition = {
    name: TOOL_SEARCH,
    description:
      searchSentence(options.deferredCount, stable) +
      ' Returns the names and short descriptions of the best matches. ' +
      SEQUENCE +
      listing,
    inputSchema: searchSchema(schemaOptions),
    source: 'core',
    annotations: { title: 'Search tools', readOnlyHint: true },
  };

  const describe: ToolDefinition = {
    name: TOOL_DESCRIBE,
    description:
      `Load the full parameter schema of a tool found with ${TOOL_SEARCH} (or of up to ` +
      `${MAX_DESCRIBE_NAMES} at once). Use it before ${TOOL_CALL} unless you already know the ` +
      'exact arguments. Tools already in your tools list need no describe.',
    inputSchema: describeSchema(schemaOptions),
    source: 'core',
    annotations: { title: 'Describe a tool', readOnlyHint: true },
  };

  const call: ToolDefinition = {
    name: TOOL_CALL,
    description:
      `Call a tool found with ${TOOL_SEARCH}, by its exact name, with arguments that match ` +
      `its schema from ${TOOL_DESCRIBE}. Policy, hooks and approvals run exactly as for a ` +
      'directly listed tool. Tools already in your tools list: call them directly, not through ' +
      `${TOOL_CALL}.`,
    inputSchema: callSchema(schemaOptions),
    source: 'core',
    annotations: { title: 'Call a tool' },
  };

  return [search, describe, call];
}
