import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonSchemaObject, ToolDefinition } from '@tool-search/core';

/** The labelled sets `tools/eval` knows, in table order. */
export const DATA_SETS = ['livemcpbench', 'metatool', 'bfcl'] as const;
/** One of {@link DATA_SETS}. */
export type DataSetName = (typeof DATA_SETS)[number];

/** The shared data folder: `../../../shared/data` from this package, i.e. beside the repository. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../../shared/data', import.meta.url));

/** One labelled query. */
export interface EvalQuery {
  id: string;
  query: string;
  relevant: ReadonlySet<string>;
}

/** A catalog and its dev queries, ready to score. */
export interface EvalSet {
  name: DataSetName;
  tools: ToolDefinition[];
  queries: EvalQuery[];
}

interface RawTool {
  name: string;
  id?: string;
  description?: string;
  inputSchema?: JsonSchemaObject;
  server?: string;
}

interface RawQuery {
  id: string;
  query: string;
  relevant: string[];
  relevantIds?: string[];
}

/** livemcpbench ids are `server::name`; tool names repeat across servers, so tools are `server__name`. */
function livemcpbenchName(id: string): string {
  const at = id.indexOf('::');
  return at < 0 ? id : `${id.slice(0, at)}__${id.slice(at + 2)}`;
}

function toTool(raw: RawTool, set: DataSetName): ToolDefinition {
  const tool: ToolDefinition = {
    name: set === 'livemcpbench' && raw.id ? livemcpbenchName(raw.id) : raw.name,
    inputSchema: raw.inputSchema ?? { type: 'object', properties: {} },
    source: 'mcp',
  };
  if (raw.description !== undefined) tool.description = raw.description;
  if (raw.server !== undefined) tool.toolset = `mcp-${raw.server}`;
  return tool;
}

/**
 * Every `n`-th query so that a capped run still spans the whole file (the files are in
 * upstream order, grouped by kind), deterministically.
 */
export function sampleQueries<T>(queries: readonly T[], max: number | undefined): T[] {
  if (max === undefined || max >= queries.length) return [...queries];
  const step = queries.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(queries[Math.floor(i * step)]!);
  return out;
}

/**
 * Loads `<dir>/<set>/catalog.json` and `queries.dev.json`. livemcpbench tools are named
 * `<server>__<name>` and its queries are scored by `relevantIds` mapped the same way.
 */
export async function loadSet(
  dir: string,
  set: DataSetName,
  maxQueries?: number,
): Promise<EvalSet> {
  const [catalog, queries] = await Promise.all([
    readFile(join(dir, set, 'catalog.json'), 'utf8').then((text) => JSON.parse(text) as RawTool[]),
    readFile(join(dir, set, 'queries.dev.json'), 'utf8').then(
      (text) => JSON.parse(text) as RawQuery[],
    ),
  ]);
  const tools = catalog.map((raw) => toTool(raw, set));
  const names = new Set(tools.map((tool) => tool.name));
  const labelled = queries
    .map((raw) => ({
      id: raw.id,
      query: raw.query,
      relevant: new Set(
        (set === 'livemcpbench' && raw.relevantIds
          ? raw.relevantIds.map(livemcpbenchName)
          : raw.relevant
        ).filter((name) => names.has(name)),
      ),
    }))
    .filter((query) => query.relevant.size > 0);
  return { name: set, tools, queries: sampleQueries(labelled, maxQueries) };
}
