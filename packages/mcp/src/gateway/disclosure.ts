import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { admitSearch } from '@tool-search/bridge';
import {
  createCatalog,
  type McpTool,
  type ToolCatalog,
  type ToolDefinition,
  toMcpTool,
} from '@tool-search/core';
import { isBridgeToolName } from '@tool-search/core/internal';
import { fingerprintTool } from '../upstream/review.js';
import {
  CATALOG_PAGE_SIZE,
  CATALOG_REQUEST_SCHEMA,
  DESCRIBE_REQUEST_SCHEMA,
  FILTERING_CAPABILITY,
  MAX_DESCRIBE_NAMES,
  PROGRESSIVE_DISCLOSURE_CAPABILITY,
  readCatalogParams,
  readDescribeParams,
  unknownNamesError,
} from './disclosure-requests.js';
import type { DisclosureState } from './disclosure-state.js';
import type { SessionState } from './session-state.js';

/** One entry of `tools/catalog`: enough to choose a tool, not to call it. */
export interface CatalogEntry {
  name: string;
  /** The description's first sentence, at most {@link MAX_SUMMARY_CHARS} characters. */
  summary: string;
  /** The tool's toolset (for an MCP server's tool, `mcp-<server>`) and its hints. */
  tags: string[];
  annotations?: McpTool['annotations'];
  /** `sha256:` of the canonical JSON of the definition `tools/describe` returns. */
  schemaHash: string;
}

/** The longest summary of a catalog entry. */
export const MAX_SUMMARY_CHARS = 200;

/** The experimental capabilities the gateway advertises. */
export function disclosureCapabilities(): Record<string, object> {
  return {
    [PROGRESSIVE_DISCLOSURE_CAPABILITY]: {
      methods: ['tools/catalog', 'tools/describe'],
      maxNames: MAX_DESCRIBE_NAMES,
    },
    [FILTERING_CAPABILITY]: { query: true },
  };
}

/** Whether the client said at initialization that it speaks the draft catalog. */
export function clientSpeaksDisclosure(state: SessionState): boolean {
  const experimental = state.server.getClientCapabilities()?.experimental;
  return experimental !== undefined && PROGRESSIVE_DISCLOSURE_CAPABILITY in experimental;
}

function summaryOf(description: string | undefined): string {
  const text = (description ?? '').replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  return sentence.length > MAX_SUMMARY_CHARS
    ? `${sentence.slice(0, MAX_SUMMARY_CHARS - 1)}…`
    : sentence;
}

function tagsOf(tool: ToolDefinition): string[] {
  const tags: string[] = [];
  if (tool.toolset !== undefined) tags.push(tool.toolset);
  if (tool.annotations?.readOnlyHint === true) tags.push('read-only');
  if (tool.annotations?.destructiveHint === true) tags.push('destructive');
  return tags;
}

function hashOf(disclosure: DisclosureState, tool: ToolDefinition): string {
  let hash = disclosure.hashes.get(tool);
  if (hash === undefined) {
    hash = fingerprintTool(toMcpTool(tool));
    disclosure.hashes.set(tool, hash);
  }
  return hash;
}

function entryOf(disclosure: DisclosureState, tool: ToolDefinition): CatalogEntry {
  const entry: CatalogEntry = {
    name: tool.name,
    summary: summaryOf(tool.description),
    tags: tagsOf(tool),
    schemaHash: hashOf(disclosure, tool),
  };
  if (tool.annotations !== undefined) entry.annotations = tool.annotations;
  return entry;
}

/**
 * One page of `tools/catalog`: every tool of the session's scope, visible and deferred,
 * in the pool's order.
 *
 * @throws nothing
 */
export function catalogPage(
  state: SessionState,
  offset: number,
): { tools: CatalogEntry[]; nextCursor?: string } {
  const tools = [...state.scoped.values()];
  const page = tools.slice(offset, offset + CATALOG_PAGE_SIZE);
  const next = offset + CATALOG_PAGE_SIZE;
  return {
    tools: page.map((tool) => entryOf(state.disclosure, tool)),
    ...(next < tools.length ? { nextCursor: String(next) } : {}),
  };
}

/**
 * The full definitions of named tools of the session's scope, in the order asked.
 *
 * @throws {@link McpError} -32602 `unknown_names` naming every name the session does not
 * hold (another profile's tools included: they are not told apart from unknown ones)
 */
export function describeTools(state: SessionState, names: readonly string[]): McpTool[] {
  const unknown = names.filter((name) => !state.scoped.has(name));
  if (unknown.length > 0) throw unknownNamesError(unknown);
  return names.map((name) => toMcpTool(state.scoped.get(name)!));
}

/** The catalog over the session's whole scope, with the gateway's ranker and cache. */
function scopeCatalog(state: SessionState): ToolCatalog {
  const { disclosure } = state;
  const assembly = state.assembly!;
  if (disclosure.catalog === undefined || disclosure.madeFor !== assembly) {
    const ranker = state.context.options.ranker;
    disclosure.catalog = createCatalog([...state.scoped.values()], {
      ...(ranker === undefined ? {} : { ranker }),
      ...(assembly.cache === undefined ? {} : { cache: assembly.cache.catalogs }),
    });
    disclosure.madeFor = assembly;
  }
  return disclosure.catalog;
}

/**
 * `tools/list` with a query: the best tools of the session's scope for it, full
 * definitions, best first (at most the config's `maxSearchLimit`).
 *
 * @throws {@link McpError} -32600 when the session's runaway-search cap is reached; what
 * the ranker throws
 */
export async function queryTools(state: SessionState, query: string): Promise<McpTool[]> {
  const assembly = state.assembly!;
  // A query spends the session's one runaway-search budget, as tool_search does.
  const refused = admitSearch(assembly);
  if (refused !== undefined)
    throw new McpError(ErrorCode.InvalidRequest, refused.error, { reason: refused.code });
  const hits = await scopeCatalog(state).search(query, { limit: assembly.config.maxSearchLimit });
  return hits.map((hit) => toMcpTool(state.scoped.get(hit.name)!));
}

/**
 * What `tools/list` answers: the assembled list; for a client that speaks the draft
 * catalog, the same without the bridge tools (it loads the deferred ones itself).
 *
 * @throws nothing
 */
export function listedFor(state: SessionState): McpTool[] {
  if (!clientSpeaksDisclosure(state)) return state.listed;
  return state.listed.filter((tool) => !isBridgeToolName(tool.name));
}

/**
 * Serves `tools/catalog` and `tools/describe` on the session's server, once the
 * upstreams settled (as `tools/list` does).
 *
 * @throws nothing; a bad request is answered with JSON-RPC -32602
 */
export function handleDisclosureRequests(state: SessionState): void {
  const { upstreamsSettled } = state.context;
  state.server.setRequestHandler(CATALOG_REQUEST_SCHEMA, async (request) => {
    const { offset } = readCatalogParams(request.params);
    await upstreamsSettled();
    return catalogPage(state, offset);
  });
  state.server.setRequestHandler(DESCRIBE_REQUEST_SCHEMA, async (request) => {
    const { names } = readDescribeParams(request.params);
    await upstreamsSettled();
    return { tools: describeTools(state, names) };
  });
}
