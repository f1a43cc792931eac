import type { Ranker, ToolCatalog, ToolDefinition, ToolSearchConfigInput } from '@tool-search/core';
import { createCatalog, MAX_QUERY_LENGTH, parseToolSearchConfig } from '@tool-search/core';
import type { SessionScope, ToolsetRegistry } from '@tool-search/toolsets';
import { scopeTools } from '@tool-search/toolsets';

/** Options of {@link createToolSearchFunction}. */
export interface ToolSearchFunctionOptions {
  /**
   * The definitions behind the tool set (from `toolDefinitionsFromToolSet` or
   * `markDeferredTools`): their schemas, toolsets and labels feed the ranker. A tool the
   * AI SDK offers that is not among them is searched by its name and description only,
   * and, when a `scope` is set, only if the `registry` lists it in a toolset the scope
   * allows (nothing else says which toolset holds it, so it is left out).
   */
  tools?: readonly ToolDefinition[];
  /** The session's scope: a tool outside it is never returned, whatever the AI SDK offers. */
  scope?: SessionScope;
  /** The toolset registry the scope is read against. */
  registry?: ToolsetRegistry;
  /** The ranker. @defaultValue core's default (BM25F) */
  ranker?: Ranker;
  /**
   * The most names returned; `toolSearch`'s `maxResults` cuts them further.
   * @defaultValue the config's `maxSearchLimit` (20)
   */
  limit?: number;
  /** The tool search config, for its `maxSearchLimit`. */
  config?: ToolSearchConfigInput;
}

/** The search function of AI SDK 7's `toolSearch({ search })`. */
export type ToolSearchFunction = (args: {
  query: string;
  tools: readonly { name: string; description?: string }[];
}) => Promise<string[]>;

/**
 * Creates the `search` function of AI SDK 7's `toolSearch({ search })`, backed by our
 * catalog and ranker instead of the AI SDK's keyword overlap. It searches only the tools
 * the AI SDK offers (those marked `deferLoading`) that are also in the session's scope
 * (with a scope, an offered tool without a definition only when the registry places it
 * in an allowed toolset), and returns their names, best first. The catalog is built once per distinct list of
 * offered tools and reused while the list stays the same.
 *
 * @example
 * ```ts
 * import { toolSearch } from 'ai';
 *
 * const search = createToolSearchFunction({ tools: definitions, scope: { enabledToolsets: ['github'] } });
 * const tools = { ...marked, tool_search: toolSearch({ search, maxResults: 5 }) };
 * ```
 *
 * @param options - see {@link ToolSearchFunctionOptions}
 * @returns `search({ query, tools })`, resolving to ranked tool names; a blank query or
 * an empty list resolves to `[]`
 * @throws nothing; the returned function rejects only when the ranker does
 */
export function createToolSearchFunction(
  options: ToolSearchFunctionOptions = {},
): ToolSearchFunction {
  const known = new Map((options.tools ?? []).map((tool) => [tool.name, tool]));
  const limit = Math.max(
    1,
    Math.floor(options.limit ?? parseToolSearchConfig(options.config).maxSearchLimit),
  );
  let cached: { key: string; catalog: ToolCatalog } | undefined;
  const listed = (name: string): boolean => {
    try {
      const toolsets = options.registry?.listing(name);
      return Array.isArray(toolsets) && toolsets.length > 0;
    } catch {
      return false;
    }
  };

  const catalogFor = (offered: readonly { name: string; description?: string }[]) => {
    const key = offered.map((tool) => tool.name).join('\u0000');
    if (cached?.key === key) return cached.catalog;
    const seen = new Set<string>();
    const definitions: ToolDefinition[] = [];
    for (const tool of offered) {
      if (typeof tool?.name !== 'string' || seen.has(tool.name)) continue;
      seen.add(tool.name);
      const definition = known.get(tool.name);
      // Without a definition, nothing says which toolset holds the tool: in a scope,
      // only the registry can place it, else it stays out (a disabled toolset may hold it).
      if (definition === undefined && options.scope !== undefined && !listed(tool.name)) continue;
      definitions.push(
        definition ?? {
          name: tool.name,
          ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
          inputSchema: { type: 'object' },
        },
      );
    }
    const scoped = options.scope
      ? scopeTools(definitions, options.scope, options.registry)
      : definitions;
    const catalog = createCatalog(scoped, options.ranker ? { ranker: options.ranker } : {});
    cached = { key, catalog };
    return catalog;
  };

  return async ({ query, tools }) => {
    const text = typeof query === 'string' ? query.trim().slice(0, MAX_QUERY_LENGTH) : '';
    if (text === '' || !Array.isArray(tools) || tools.length === 0) return [];
    const catalog = catalogFor(tools);
    const hits = await catalog.search(text, { limit });
    const names = hits.map((hit) => hit.name);
    // A query that is a tool's exact name finds that tool first, as the bridge's does.
    const exact = catalog.get(text);
    return exact ? [exact.name, ...names.filter((name) => name !== exact.name)] : names;
  };
}
