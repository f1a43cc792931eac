import type { Tool } from '@modelcontextprotocol/client';
import {
  fromMcpTool,
  type McpTool,
  type ToolDefinition,
  validateToolDefinitions,
} from '@tool-search/core';
import { z } from 'zod/v4';
import type { UpstreamClient } from './client.js';
import type { CutTool, UpstreamLimits } from './limits.js';
import type { RejectedTool } from './pool-types.js';
import { screenUpstreamTools } from './screen.js';

const ListToolsPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  // Cache hints of the 2026-07-28 era (absent in 2025).
  ttlMs: z.unknown().optional(),
  cacheScope: z.unknown().optional(),
});

const MAX_LIST_PAGES = 100;

/** What one listing of a server's tools gave, after validation and screening. */
export interface ListedTools {
  /** Every accepted definition (held ones included). */
  listed: ToolDefinition[];
  /** The fingerprint of each accepted definition, by name. */
  fingerprints: Map<string, string>;
  /** Definitions whose description was cut. */
  cut: CutTool[];
  /** Tools that pinned themselves on an untrusted server. */
  ignoredPins: string[];
  /** Definitions that were refused, with why. */
  rejected: RejectedTool[];
  /**
   * The upstream's own definition of each accepted tool that declares `x-mcp-header`
   * arguments, by upstream name: what a 2026-07-28 call mirrors into `Mcp-Param-*` headers.
   */
  headerTools: Map<string, Tool>;
  /** How long the list may be used before it is stale (2026-07-28 `ttlMs`; first page). */
  ttlMs?: number;
  /** Whether the list is the same for every caller (`public`) or for this credential only. */
  cacheScope?: 'public' | 'private';
}

/** Options of {@link listUpstreamTools}. */
export interface ListUpstreamToolsOptions {
  /** The server's name in the config. */
  server: string;
  /** Whether the config trusts the server's own metadata. */
  trusted: boolean;
  /** How much of a definition is accepted and shown. */
  limits: UpstreamLimits;
  /** The timeout of each page's request. */
  timeoutMs: number;
  /** Cancels the listing. */
  signal?: AbortSignal | undefined;
  /** The last accepted definitions: unchanged ones keep their objects. */
  previous: readonly ToolDefinition[];
}

/**
 * Lists a server's tools page by page (at most 100 pages, a repeated cursor ends it),
 * converts and validates them, and screens them against the limits and the trust.
 *
 * @param client - the connected client
 * @param options - see {@link ListUpstreamToolsOptions}
 * @returns the accepted, cut and refused definitions
 * @throws the request's error when a page cannot be listed
 */
export async function listUpstreamTools(
  client: UpstreamClient,
  options: ListUpstreamToolsOptions,
): Promise<ListedTools> {
  const { signal } = options;
  const raws: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let hints: { ttlMs?: unknown; cacheScope?: unknown } | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      ListToolsPageSchema,
      { timeout: options.timeoutMs, ...(signal ? { signal } : {}) },
    );
    hints ??= result;
    raws.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  const converted = raws.map((raw) =>
    typeof raw === 'object' && raw !== null
      ? fromMcpTool(raw as McpTool, { server: options.server })
      : raw,
  );
  const { tools: valid, errors } = validateToolDefinitions(converted);
  // Upstream metadata is untrusted: limits first (nothing below meets an unbounded
  // nesting), then only trusted servers keep their own pins.
  const screened = screenUpstreamTools(valid, { trusted: options.trusted, limits: options.limits });
  // Keep the objects of unchanged tools: downstream work (token estimates, ranker
  // analysis) is memoized per tool object.
  const previous = new Map(options.previous.map((tool) => [tool.name, tool]));
  const accepted = new Set(screened.tools.map((tool) => tool.origin?.name ?? tool.name));
  const headerTools = new Map<string, Tool>();
  for (const raw of raws) {
    const tool = raw as Tool;
    if (typeof tool?.name !== 'string' || !accepted.has(tool.name)) continue;
    if (JSON.stringify(tool.inputSchema ?? {}).includes('"x-mcp-header"')) {
      headerTools.set(tool.name, { name: tool.name, inputSchema: tool.inputSchema });
    }
  }
  const ttlMs = hints?.ttlMs;
  const cacheScope = hints?.cacheScope;
  return {
    headerTools,
    ...(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= 0 ? { ttlMs } : {}),
    ...(cacheScope === 'public' || cacheScope === 'private' ? { cacheScope } : {}),
    listed: screened.tools.map((tool) => {
      const before = previous.get(tool.name);
      return before !== undefined && JSON.stringify(before) === JSON.stringify(tool)
        ? before
        : tool;
    }),
    fingerprints: screened.fingerprints,
    cut: screened.cut,
    ignoredPins: screened.ignoredPins,
    rejected: [
      ...errors.map((error) => ({ name: error.data?.tool ?? '<unnamed>', error: error.message })),
      ...screened.rejected,
    ],
  };
}
