import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** One entry of the vendored `data/mcp-real/combined-catalog.json`. */
export interface RecordedEntry {
  /** The tool's name on its own server (not unique across servers). */
  name: string;
  /** `server::name`, unique. */
  id: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server key, e.g. `github`. */
  server: string;
  /** The npm package the definition was dumped from. */
  package: string;
  packageVersion: string;
  title?: string;
  annotations?: Record<string, unknown>;
}

/** How the recorded tools are named. */
export type RecordedNaming = 'prefixed' | 'raw';

/** What the recorded server serves. */
export interface RecordedSelection {
  /** Only these server keys (all when absent or empty). */
  servers?: readonly string[];
  /** Leave these server keys out. */
  exclude?: readonly string[];
  /**
   * `prefixed` (default): `<server>__<name>`, unique across servers. `raw`: the name as
   * the server published it; refused when two selected tools share a name.
   */
  naming?: RecordedNaming;
}

/** The `_meta` key under which each served tool names its recorded origin. */
export const RECORDED_META_KEY = 'io.github.tool-search/recorded';

/** The separator of `<server>__<name>`. */
export const RECORDED_NAME_SEPARATOR = '__';

const CATALOG_URL = new URL('../data/mcp-real/combined-catalog.json', import.meta.url);

/**
 * Reads the vendored catalog of real tool definitions (397 tools of 23 published MCP
 * servers; provenance in `data/mcp-real/README.md`).
 *
 * @param path - another file in the same format @defaultValue the vendored catalog
 * @returns the entries, in file order
 * @throws the `fs` or `JSON.parse` error when the file is missing or not JSON
 */
export function loadRecordedCatalog(path: string | URL = CATALOG_URL): RecordedEntry[] {
  return JSON.parse(readFileSync(path, 'utf8')) as RecordedEntry[];
}

/** The server keys of a catalog, in first-seen order. */
export function recordedServerKeys(entries: readonly RecordedEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.server))];
}

/** A recorded tool as served, with the entry it came from. */
export interface ServedRecordedTool {
  tool: Tool;
  entry: RecordedEntry;
}

/**
 * Selects and names the tools the recorded server serves.
 *
 * @param entries - the catalog
 * @param selection - which servers and how to name their tools
 * @returns the tools, in catalog order, with unique names
 * @throws `Error` naming an unknown server key, or the clashing names in `raw` mode
 */
export function selectRecordedTools(
  entries: readonly RecordedEntry[],
  selection: RecordedSelection = {},
): ServedRecordedTool[] {
  const known = new Set(recordedServerKeys(entries));
  for (const key of [...(selection.servers ?? []), ...(selection.exclude ?? [])]) {
    if (!known.has(key)) {
      throw new Error(
        `Unknown recorded server '${key}'. Known servers: ${[...known].sort().join(', ')}.`,
      );
    }
  }
  const only = selection.servers?.length ? new Set(selection.servers) : undefined;
  const excluded = new Set(selection.exclude ?? []);
  const naming = selection.naming ?? 'prefixed';
  const served: ServedRecordedTool[] = [];
  const seen = new Map<string, RecordedEntry>();
  for (const entry of entries) {
    if (only && !only.has(entry.server)) continue;
    if (excluded.has(entry.server)) continue;
    const name =
      naming === 'raw' ? entry.name : `${entry.server}${RECORDED_NAME_SEPARATOR}${entry.name}`;
    const previous = seen.get(name);
    if (previous) {
      throw new Error(
        `Recorded tools '${previous.id}' and '${entry.id}' would both be served as '${name}'. ` +
          `Use prefixed names or select fewer servers.`,
      );
    }
    seen.set(name, entry);
    const tool: Tool = {
      name,
      description: entry.description ?? '',
      inputSchema: entry.inputSchema as Tool['inputSchema'],
      _meta: {
        [RECORDED_META_KEY]: {
          server: entry.server,
          name: entry.name,
          package: entry.package,
          version: entry.packageVersion,
        },
      },
    };
    if (entry.title !== undefined) tool.title = entry.title;
    if (entry.annotations !== undefined)
      tool.annotations = entry.annotations as Tool['annotations'];
    served.push({ tool, entry });
  }
  return served;
}

/**
 * The text a call to a recorded tool answers with.
 *
 * @param name - the served name
 * @param entry - its catalog entry
 * @returns one paragraph that says nothing was run and why
 */
export function recordedCallText(name: string, entry: RecordedEntry): string {
  return (
    `'${name}' is a recorded definition of the '${entry.name}' tool of ${entry.package} ` +
    `${entry.packageVersion} (server '${entry.server}'). It has no backend here, so nothing ` +
    `was run. To use it, install and configure that MCP server.`
  );
}

/**
 * Creates the recorded-catalog MCP server: a low-level SDK `Server` that lists the
 * selected recorded tools with their raw JSON Schemas and answers every call with an
 * error result saying the definition is recorded and has no backend.
 *
 * @param selection - which servers and how to name their tools
 * @param entries - the catalog @defaultValue {@link loadRecordedCatalog}()
 * @returns the server, not yet connected
 * @throws as {@link selectRecordedTools}
 */
export function createRecordedServer(
  selection: RecordedSelection = {},
  entries: readonly RecordedEntry[] = loadRecordedCatalog(),
): Server {
  const served = selectRecordedTools(entries, selection);
  const byName = new Map(served.map((item) => [item.tool.name, item]));
  const server = new Server(
    { name: 'tool-search-recorded', version: '0.0.0' },
    {
      capabilities: { tools: {} },
      instructions:
        'Recorded tool definitions of published MCP servers. Calls are not executed: ' +
        'every call answers that the tool has no backend.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: served.map((item) => item.tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const name = request.params.name;
    const item = byName.get(name);
    const text = item
      ? recordedCallText(name, item.entry)
      : `Unknown tool '${name}': this recorded server has no tool of that name.`;
    return { isError: true, content: [{ type: 'text', text }] };
  });
  return server;
}

/**
 * Runs the recorded server on stdio until stdin closes.
 *
 * @param selection - which servers and how to name their tools
 * @returns once connected; the process then lives as long as its transport
 */
export async function runRecordedServer(selection: RecordedSelection = {}): Promise<void> {
  const server = createRecordedServer(selection);
  const transport = new StdioServerTransport();
  // The client closing our stdin is the end of the session.
  process.stdin.once('end', () => {
    void server.close().finally(() => process.exit(0));
  });
  await server.connect(transport);
}
