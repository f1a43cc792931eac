import type { ToolDefinition } from '@tool-search/core';
import { expandInto, isRegistryLike, readScope } from './read-scope.js';
import type { ToolsetRegistry } from './toolset-registry.js';

/**
 * Which toolsets a session (or a subagent) may see.
 *
 * - `enabledToolsets` absent: the scope does not restrict. Every tool is in scope,
 *   tools with no toolset included, except those a disabled toolset holds.
 * - `enabledToolsets` present (even empty): the scope restricts. A tool is in scope
 *   only when an enabled toolset holds it; a tool no toolset holds is never in scope.
 *   `enabledToolsets: []` admits nothing.
 * - `disabledToolsets`: a tool that any disabled toolset holds is out of scope,
 *   whatever is enabled. Disabled wins.
 *
 * "Holds" follows {@link ToolsetRegistry}: a toolset holds the tools whose `toolset`
 * field names it, the tools its definition lists, and every tool of the toolsets it
 * includes, transitively. A name the registry does not define (or any name, without a
 * registry) holds exactly the tools whose `toolset` field names it.
 *
 * @example
 * ```ts
 * const session: SessionScope = { enabledToolsets: ['dev'], disabledToolsets: ['mcp-slack'] };
 * const everythingButShell: SessionScope = { disabledToolsets: ['shell'] };
 * ```
 */
export interface SessionScope {
  /** The toolsets the session may use; absent means every toolset (see above). */
  enabledToolsets?: readonly string[];
  /** The toolsets the session may not use; wins over `enabledToolsets`. */
  disabledToolsets?: readonly string[];
}

const NOTHING_KEY = 'v1;none';

/**
 * The tools of `tools` that are in `scope`, in their original order (the same
 * objects, not copies). Idempotent: scoping the result again changes nothing.
 *
 * It fails closed and never throws: a `scope` that is not an object, a field that is
 * neither absent nor an array, a disabled entry that is not a string, a `registry`
 * that is not a {@link ToolsetRegistry}, or a registry that throws makes the result
 * empty. Enabled entries that are not strings are ignored (which only narrows).
 * Entries of `tools` that are not objects with a string `name` are left out.
 *
 * Cost: one pass over `tools` with a few set lookups per tool and no per-tool
 * allocation; the scope is expanded once per call.
 *
 * @example
 * ```ts
 * const registry = createToolsetRegistry([{ name: 'dev', includes: ['mcp-github', 'files'] }]);
 * const visible = scopeTools(allTools, { enabledToolsets: ['dev'] }, registry);
 * // then: assembleTools({ tools: visible, ... })
 * ```
 *
 * @param tools - every tool registered in the runtime
 * @param scope - the session's scope
 * @param registry - resolves `includes` and `tools` lists; without it a toolset holds
 * exactly the tools whose `toolset` field names it
 * @returns the tools in scope
 * @throws nothing
 */
export function scopeTools<T extends ToolDefinition>(
  tools: readonly T[],
  scope: SessionScope,
  registry?: ToolsetRegistry,
): T[] {
  try {
    if (!Array.isArray(tools)) return [];
    if (registry !== undefined && !isRegistryLike(registry)) return [];
    const read = readScope(scope);
    if (!read.ok) return [];
    const enabled =
      read.enabled === undefined ? undefined : expandInto(read.enabled, registry, new Set());
    if (enabled !== undefined && enabled.size === 0) return [];
    const disabled = expandInto(read.disabled, registry, new Set());

    const result: T[] = [];
    for (let index = 0; index < tools.length; index++) {
      const tool = tools[index];
      if (typeof tool !== 'object' || tool === null) continue;
      const name: unknown = tool.name;
      if (typeof name !== 'string') continue;
      const own: unknown = tool.toolset;
      let held = enabled === undefined;
      if (typeof own === 'string') {
        if (disabled.has(own)) continue;
        if (!held && enabled!.has(own)) held = true;
      }
      if (registry !== undefined) {
        const listed = registry.listing(name);
        if (!Array.isArray(listed)) return [];
        let blocked = false;
        for (let at = 0; at < listed.length; at++) {
          const toolset = listed[at] as string;
          if (disabled.has(toolset)) {
            blocked = true;
            break;
          }
          if (!held && enabled!.has(toolset)) held = true;
        }
        if (blocked) continue;
      }
      if (held) result.push(tool);
    }
    return result;
  } catch {
    // A registry or a tool object that throws: admit nothing rather than guess.
    return [];
  }
}

/**
 * A stable string that identifies what `scope` admits under `registry`, for caching
 * per scope and registry generation without a session-keyed map. Two scopes that
 * differ only in order or repeats of names get the same key; any change of the
 * registry's definitions (its {@link ToolsetRegistry.fingerprint}) gives a new key.
 * Scopes that admit nothing (`enabledToolsets: []`, unreadable input, a value that is
 * not a registry) share the key `v1;none`.
 *
 * @example
 * ```ts
 * const key = scopeKey(session.scope, registry);
 * let catalog = cache.get(key);
 * if (catalog === undefined) cache.set(key, (catalog = buildCatalog(scopeTools(tools, session.scope, registry))));
 * ```
 *
 * @param scope - a session scope
 * @param registry - the registry the scope is used with, if any
 * @returns a key such as `v1;r=<fingerprint>;e=["dev"];d=["mcp-slack"]`
 * (`e=*` for a scope that does not restrict, `r=-` without a registry)
 * @throws nothing
 */
export function scopeKey(scope: SessionScope, registry?: ToolsetRegistry): string {
  try {
    return scopeKeyUnguarded(scope, registry);
  } catch {
    return NOTHING_KEY;
  }
}

function scopeKeyUnguarded(scope: SessionScope, registry: ToolsetRegistry | undefined): string {
  const registryPart =
    registry === undefined
      ? '-'
      : isRegistryLike(registry) && typeof registry.fingerprint === 'string'
        ? registry.fingerprint
        : undefined;
  const read = readScope(scope);
  if (!read.ok || registryPart === undefined || (read.enabled?.length ?? 1) === 0) {
    return NOTHING_KEY;
  }
  const enabled = read.enabled === undefined ? '*' : JSON.stringify([...read.enabled].sort());
  const disabled = JSON.stringify([...read.disabled].sort());
  return `v1;r=${registryPart};e=${enabled};d=${disabled}`;
}
