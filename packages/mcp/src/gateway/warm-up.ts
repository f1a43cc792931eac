import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { TOOL_SEARCH } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import { withoutTelemetry } from '@tool-search/core/internal';
import type { GatewayProfile } from '../config/schemas.js';
import { createGatewaySession } from './session.js';
import type { GatewaySessionContext } from './session-state.js';
import type { WarmUpReport } from './types.js';

/** The query of the first warm-up search: any words load the analyzer and build the index. */
const WARM_UP_QUERY = 'warm up the search index';

/** How many throwaway sessions search per scope (see {@link warmUpScope}). */
const SESSIONS_PER_SCOPE = 2;

/** How many queries the later sessions ask, made of the names of tools across the catalog. */
const CATALOG_QUERIES = 8;

/**
 * Queries of the catalog's own words: the names of tools spread across it, split into
 * words. A query that matches many tools runs passes of the ranker that a query matching
 * few never reaches, and their first run is slow (see the benchmarks guide).
 */
function catalogQueries(tools: readonly ToolDefinition[]): string[] {
  const queries: string[] = [];
  const step = tools.length / CATALOG_QUERIES;
  for (let i = 0; i < Math.min(CATALOG_QUERIES, tools.length); i += 1) {
    const name = tools[Math.floor(i * step)]!.name;
    queries.push(name.replace(/[_\-.:/]+/g, ' ').trim() || name);
  }
  return queries;
}

// A macrotask between steps, so that requests waiting on the event loop get their turn.
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One throwaway session of a profile, on an in-memory pair, that searches (the first of a
 * scope once, the next with {@link catalogQueries}): the
 * same code a client's session runs (the MCP request path, the bridge, the assembly
 * cache and ranker every session shares). It is in no session table and sends nothing
 * to the activity feed.
 *
 * @returns whether tool search is active in that scope (and so was searched)
 */
async function searchInSession(
  context: GatewaySessionContext,
  profileName: string | undefined,
  profile: GatewayProfile | undefined,
  first: boolean,
): Promise<boolean> {
  const quiet: GatewaySessionContext = { ...context, emitActivity: () => {}, onClosed: () => {} };
  const session = createGatewaySession(quiet, profileName, profile, `warm-up-${randomUUID()}`);
  const client = new Client({ name: 'tool-search-warm-up', version: '1.0.0' });
  try {
    const assembly = session.assembly();
    if (!assembly.activated) return false;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    await client.connect(clientSide);
    const queries = first ? [WARM_UP_QUERY] : catalogQueries(assembly.deferred);
    for (const query of queries) {
      await client.callTool({ name: TOOL_SEARCH, arguments: { query } });
    }
    return true;
  } finally {
    await client.close().catch(() => {});
    await session.close();
  }
}

/**
 * Warms one scope: the first session builds the index cold (and loads the analyzer's
 * model); the second takes that index over as every later session's catalog does, a
 * path of its own that would otherwise run first in a client's search, and asks queries
 * that reach every pass of the ranker.
 */
async function warmUpScope(
  context: GatewaySessionContext,
  profileName: string | undefined,
  profile: GatewayProfile | undefined,
  isClosed: () => boolean,
): Promise<boolean> {
  let searched = false;
  for (let round = 0; round < SESSIONS_PER_SCOPE && !isClosed(); round += 1) {
    await nextTurn();
    // The warm-up's searches are the gateway's own: no client's spans or metrics.
    const searchedNow = await withoutTelemetry(() =>
      searchInSession(context, profileName, profile, round === 0),
    );
    searched = searchedNow || searched;
  }
  return searched;
}

/**
 * Runs each profile's sessions once before any client does, once the first connect
 * round settled: the analyzer's language model loads, each scope's index is built and
 * the search path is compiled now, not on a session's first `tool_search`, which then
 * costs what later ones cost (`pnpm bench --gateway` measures it).
 *
 * @param context - what the sessions share with the gateway
 * @param profiles - the config's profiles
 * @param defaultProfile - the profile of sessions that name none, when there is one
 * @param isClosed - stops between sessions once the gateway closes
 * @returns what was done
 * @throws nothing: a scope that fails (say, two tools of one name) is skipped
 * @internal
 */
export async function warmUpSearch(
  context: GatewaySessionContext,
  profiles: Record<string, GatewayProfile>,
  defaultProfile: string | undefined,
  isClosed: () => boolean,
): Promise<WarmUpReport> {
  const began = performance.now();
  const report: WarmUpReport = { scopes: [], searched: [], durationMs: 0 };
  const scopes: [string, string | undefined, GatewayProfile | undefined][] = [];
  if (defaultProfile === undefined) scopes.push(['(default)', undefined, undefined]);
  for (const [name, profile] of Object.entries(profiles)) scopes.push([name, name, profile]);
  for (const [label, profileName, profile] of scopes) {
    if (isClosed()) break;
    report.scopes.push(label);
    try {
      if (await warmUpScope(context, profileName, profile, isClosed)) report.searched.push(label);
    } catch {
      // The sessions of this scope meet the same trouble and report it there.
    }
  }
  report.durationMs = performance.now() - began;
  return report;
}
