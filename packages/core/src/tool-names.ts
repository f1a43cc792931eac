import { BRIDGE_TOOL_NAMES } from './classify.js';
import { sha256Hex } from './sha256.js';
import { MAX_TOOL_NAME_LENGTH } from './tool-definition.js';
import type { ToolDefinition } from './types.js';

/** One tool before naming: its server (or toolset) and its definition under its own name. */
export interface UpstreamToolEntry {
  /** The server's name in the config. */
  server: string;
  /** The definition, named as the server names it. */
  tool: ToolDefinition;
}

/** One tool after naming. */
export interface NamedUpstreamTool extends UpstreamToolEntry {
  /** The name to expose; equals `tool.name` unless it collided. */
  name: string;
}

/**
 * The prefix used for a server's tools when their names collide: the server's name
 * with every character that a tool name cannot hold replaced by `_`.
 *
 * @param server - the server's name
 * @returns the prefix, e.g. `my_server` for `my server`; `server` for an empty name
 * @throws nothing
 */
export function serverPrefix(server: string): string {
  return server.replace(/[^A-Za-z0-9_-]/g, '_') || 'server';
}

function fitLength(name: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = sha256Hex(name).slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${hash}`;
}

/**
 * Names the tools of several servers so that every name is unique, deterministically
 * and without dropping any tool. A name that only one server uses is kept. A name
 * that two or more servers use, or that is reserved (the bridge tools), is prefixed
 * with the server's name on every server that uses it: `github_create_issue` and
 * `gitlab_create_issue`. If a prefixed name is still taken, `_2`, `_3`, ... is added;
 * a name longer than {@link MAX_TOOL_NAME_LENGTH} is cut and given a hash suffix.
 * The result depends only on the input order (servers in config order). Use it before
 * `assembleTools` (from `@tool-search/bridge`), which rejects duplicate names, and
 * keep `origin` for policies: it is never renamed.
 *
 * @example
 * ```ts
 * const named = resolveToolNames([
 *   { server: 'github', tool: githubCreateIssue },
 *   { server: 'gitlab', tool: gitlabCreateIssue },
 * ]);
 * const tools = named.map((entry) => ({ ...entry.tool, name: entry.name }));
 * ```
 *
 * @param entries - the tools, in server order then upstream order
 * @param reserved - names that no tool may take @defaultValue the bridge tool names
 * @returns one named entry per input entry, in input order
 * @throws nothing
 */
export function resolveToolNames(
  entries: readonly UpstreamToolEntry[],
  reserved: ReadonlySet<string> = BRIDGE_TOOL_NAMES,
): NamedUpstreamTool[] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.tool.name, (counts.get(entry.tool.name) ?? 0) + 1);
  const isPlain = (name: string) => counts.get(name) === 1 && !reserved.has(name);

  const taken = new Set<string>(reserved);
  for (const entry of entries) if (isPlain(entry.tool.name)) taken.add(entry.tool.name);

  return entries.map((entry) => {
    if (isPlain(entry.tool.name)) return { ...entry, name: entry.tool.name };
    const base = fitLength(`${serverPrefix(entry.server)}_${entry.tool.name}`);
    let name = base;
    for (let suffix = 2; taken.has(name); suffix += 1) {
      name = fitLength(`${base}_${suffix}`);
    }
    taken.add(name);
    return { ...entry, name };
  });
}
