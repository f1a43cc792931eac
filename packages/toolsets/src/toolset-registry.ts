import { type ToolDefinition, ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { hashText } from './fingerprint.js';

/** The prefix of the implicit toolset of an MCP server: `mcp-<server>`. */
export const MCP_TOOLSET_PREFIX = 'mcp-';

/**
 * A named group of tools. A tool belongs to a toolset when its `toolset` field names
 * it or when the definition's `tools` list names the tool; a toolset also holds every
 * tool of the toolsets it `includes`, transitively.
 *
 * @example
 * ```ts
 * const dev: ToolsetDefinition = {
 *   name: 'dev',
 *   description: 'Everything a coding session needs',
 *   includes: ['mcp-github', 'files'],
 *   tools: ['run_tests'],
 * };
 * ```
 */
export interface ToolsetDefinition {
  /** Unique among the definitions of one registry, e.g. `files` or `mcp-github`. */
  name: string;
  /** What the toolset is for (documentation only; it does not affect scoping). */
  description?: string;
  /** Names of tools this toolset holds in addition to those whose `toolset` field names it. */
  tools?: readonly string[];
  /**
   * Toolsets whose tools this toolset also holds, transitively. Each must be defined
   * in the same registry or be an implicit `mcp-<server>` toolset.
   */
  includes?: readonly string[];
}

/**
 * Resolved toolset definitions: which toolset includes which, and which toolsets
 * hold a tool. Immutable; build a new one with {@link createToolsetRegistry} when the
 * definitions change. {@link scopeTools}, {@link narrowScope} and {@link scopeKey}
 * only use the members below, so another implementation can stand in for it.
 */
export interface ToolsetRegistry {
  /**
   * A hash of the definitions (names, descriptions, tools, includes; order does not
   * matter). Equal definitions give equal fingerprints, so a registry rebuilt from
   * unchanged definitions keeps every {@link scopeKey}; any change gives a new one.
   */
  readonly fingerprint: string;
  /** The definitions, frozen, in the order they were given. */
  definitions(): readonly ToolsetDefinition[];
  /** The names of the defined toolsets, in definition order. */
  names(): string[];
  /** One definition by name, or `undefined` (also for implicit `mcp-<server>` toolsets). */
  get(name: string): ToolsetDefinition | undefined;
  /** Whether the toolset exists: it is defined, or it is an implicit `mcp-<server>` toolset. */
  has(name: string): boolean;
  /**
   * The toolset followed by every toolset it includes, transitively, each once.
   * A name without a definition expands to itself alone.
   */
  expand(name: string): readonly string[];
  /** The defined toolsets whose `tools` list names this tool directly (not through includes). */
  listing(toolName: string): readonly string[];
  /**
   * Every toolset that holds the tool: the one its `toolset` field names, the ones
   * that list it, and every toolset that includes one of those, transitively. Sorted.
   */
  toolsetsOf(tool: Pick<ToolDefinition, 'name' | 'toolset'>): string[];
}

/**
 * The implicit toolset name of an MCP server.
 *
 * @param server - the server's name in the `mcpServers` config, e.g. `github`
 * @returns `mcp-<server>`, e.g. `mcp-github`
 * @throws nothing
 */
export function mcpToolsetName(server: string): string {
  return MCP_TOOLSET_PREFIX + server;
}

/**
 * Whether a name is an implicit MCP toolset name (`mcp-` followed by at least one character).
 *
 * @param name - a toolset name
 * @returns true for `mcp-github`, false for `mcp-` and `github`
 * @throws nothing
 */
export function isMcpToolsetName(name: string): boolean {
  return (
    typeof name === 'string' &&
    name.length > MCP_TOOLSET_PREFIX.length &&
    name.startsWith(MCP_TOOLSET_PREFIX)
  );
}

const EMPTY: readonly string[] = Object.freeze([]);

function invalid(message: string): ToolSearchError {
  return new ToolSearchError('invalid_argument', message);
}

function readNames(value: unknown, where: string, field: 'tools' | 'includes'): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw invalid(`${where}.${field} must be an array of names, got ${describeError(value)}.`);
  }
  const names: string[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'string' || entry.length === 0) {
      throw invalid(
        `${where}.${field}[${index}] must be a non-empty string, got ${describeError(entry)}.`,
      );
    }
    if (!seen.has(entry)) {
      seen.add(entry);
      names.push(entry);
    }
  }
  return names;
}

function readDefinition(raw: unknown, index: number): ToolsetDefinition {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(`Toolset definition #${index} must be an object, got ${describeError(raw)}.`);
  }
  const record = raw as Record<string, unknown>;
  const name = record['name'];
  if (typeof name !== 'string' || name.length === 0) {
    throw invalid(
      `Toolset definition #${index} needs a non-empty string 'name', got ${describeError(name)}.`,
    );
  }
  const where = `Toolset '${name}'`;
  const description = record['description'];
  if (description !== undefined && typeof description !== 'string') {
    throw invalid(`${where}.description must be a string, got ${describeError(description)}.`);
  }
  const definition: ToolsetDefinition = { name };
  if (description !== undefined) definition.description = description;
  const tools = readNames(record['tools'], where, 'tools');
  if (record['tools'] !== undefined) definition.tools = Object.freeze(tools);
  const includes = readNames(record['includes'], where, 'includes');
  if (record['includes'] !== undefined) definition.includes = Object.freeze(includes);
  return Object.freeze(definition);
}

function sortedUnique(names: Iterable<string>): string[] {
  return [...new Set(names)].sort();
}

function fingerprintOf(definitions: readonly ToolsetDefinition[]): string {
  const canonical = [...definitions]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((definition) => [
      definition.name,
      definition.description ?? null,
      sortedUnique(definition.tools ?? EMPTY),
      sortedUnique(definition.includes ?? EMPTY),
    ]);
  return hashText(JSON.stringify(canonical));
}

/**
 * Resolves toolset definitions into a {@link ToolsetRegistry}: checks them, follows
 * `includes` transitively and precomputes membership, so that scoping thousands of
 * tools against it is a few set lookups per tool.
 *
 * Implicit `mcp-<server>` toolsets need no definition: a tool whose `toolset` is
 * `mcp-github` belongs to `mcp-github`, and a definition may include `mcp-github`.
 * Defining `mcp-github` anyway (to describe it or list more tools) is allowed.
 *
 * @example
 * ```ts
 * const registry = createToolsetRegistry([
 *   { name: 'files', tools: ['read_file', 'write_file'] },
 *   { name: 'dev', includes: ['files', 'mcp-github'] },
 * ]);
 * registry.expand('dev'); // ['dev', 'files', 'mcp-github']
 * ```
 *
 * @param definitions - the toolset definitions, names unique
 * @returns the registry
 * @throws `ToolSearchError` `duplicate_toolset` when two definitions share a name;
 * `unknown_toolset` when a definition includes a toolset that is neither defined nor
 * `mcp-<server>`; `toolset_cycle` when includes form a cycle (the message names the
 * path, e.g. `a -> b -> a`); `invalid_argument` when `definitions` is not an array or a
 * definition is malformed (names the definition and the field).
 */
export function createToolsetRegistry(definitions: readonly ToolsetDefinition[]): ToolsetRegistry {
  if (!Array.isArray(definitions)) {
    throw invalid(
      `createToolsetRegistry expects an array of toolset definitions, got ${describeError(definitions)}.`,
    );
  }
  const list = definitions.map((raw, index) => readDefinition(raw, index));

  const byName = new Map<string, ToolsetDefinition>();
  for (const definition of list) {
    if (byName.has(definition.name)) {
      throw new ToolSearchError(
        'duplicate_toolset',
        `Toolset '${definition.name}' is defined more than once. Merge the definitions or rename one of them.`,
        { data: { toolset: definition.name } },
      );
    }
    byName.set(definition.name, definition);
  }

  for (const definition of list) {
    for (const included of definition.includes ?? EMPTY) {
      if (!byName.has(included) && !isMcpToolsetName(included)) {
        throw new ToolSearchError(
          'unknown_toolset',
          `Toolset '${definition.name}' includes '${included}', which is not defined. Define '${included}' or remove it from the includes of '${definition.name}' (only mcp-<server> toolsets exist without a definition).`,
          { data: { toolset: included } },
        );
      }
    }
  }

  // Depth-first, in definition order, so that the reported cycle is deterministic.
  const expansions = new Map<string, readonly string[]>();
  const onPath = new Map<string, number>();
  const path: string[] = [];
  const visit = (name: string): readonly string[] => {
    const done = expansions.get(name);
    if (done !== undefined) return done;
    const definition = byName.get(name);
    if (definition === undefined) return [name];
    onPath.set(name, path.length);
    path.push(name);
    const expansion = [name];
    const seen = new Set(expansion);
    for (const included of definition.includes ?? EMPTY) {
      const start = onPath.get(included);
      if (start !== undefined) {
        const cycle = [...path.slice(start), included];
        throw new ToolSearchError(
          'toolset_cycle',
          `Toolset includes form a cycle: ${cycle.join(' -> ')}. Remove one of these includes.`,
          { data: { toolset: included } },
        );
      }
      for (const member of visit(included)) {
        if (!seen.has(member)) {
          seen.add(member);
          expansion.push(member);
        }
      }
    }
    path.pop();
    onPath.delete(name);
    const frozen = Object.freeze(expansion);
    expansions.set(name, frozen);
    return frozen;
  };
  for (const definition of list) visit(definition.name);

  // holders(x): every defined toolset whose expansion contains x, x itself excluded.
  const holders = new Map<string, string[]>();
  for (const [name, expansion] of expansions) {
    for (const member of expansion) {
      if (member === name) continue;
      let entry = holders.get(member);
      if (entry === undefined) {
        entry = [];
        holders.set(member, entry);
      }
      entry.push(name);
    }
  }

  const listings = new Map<string, readonly string[]>();
  for (const definition of list) {
    for (const toolName of definition.tools ?? EMPTY) {
      const current = listings.get(toolName);
      listings.set(toolName, Object.freeze([...(current ?? EMPTY), definition.name]));
    }
  }

  const fingerprint = fingerprintOf(list);
  const frozenList = Object.freeze(list);

  const registry: ToolsetRegistry = {
    fingerprint,
    definitions: () => frozenList,
    names: () => list.map((definition) => definition.name),
    get: (name) => byName.get(name),
    has: (name) => byName.has(name) || isMcpToolsetName(name),
    expand: (name) => expansions.get(name) ?? (typeof name === 'string' ? [name] : EMPTY),
    listing: (toolName) => listings.get(toolName) ?? EMPTY,
    toolsetsOf(tool) {
      const direct: string[] = [];
      if (typeof tool?.toolset === 'string') direct.push(tool.toolset);
      if (typeof tool?.name === 'string') direct.push(...(listings.get(tool.name) ?? EMPTY));
      const result = new Set<string>();
      for (const name of direct) {
        result.add(name);
        for (const holder of holders.get(name) ?? EMPTY) result.add(holder);
      }
      return [...result].sort();
    },
  };
  return Object.freeze(registry);
}
