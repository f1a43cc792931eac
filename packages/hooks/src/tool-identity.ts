import type { ToolDefinition, ToolOrigin } from '@tool-search/core';
import { createGlobMatcher } from './glob.js';

/**
 * The origin of the tool that a call names: `tool.origin` when `tool` is the definition
 * of that very name. A definition of another name (a stale context after a hook renamed
 * the call) says nothing about this call.
 *
 * @param callName - the name the call uses (the exposed name)
 * @param tool - the definition in the dispatch context, if any
 * @returns the origin, or `undefined` when the tool is unknown or has none
 * @throws nothing
 */
export function originOfCall(callName: string, tool?: ToolDefinition): ToolOrigin | undefined {
  return tool !== undefined && tool.name === callName ? tool.origin : undefined;
}

/**
 * The stable key of a tool, for what is remembered about it (session approvals): its
 * `server/name` when it has an origin, else its name. A rename keeps the key; another
 * tool that later takes the exposed name has a key of its own.
 *
 * @param name - the exposed name
 * @param origin - the tool's origin, if it has one
 * @returns `server/name`, or `name`
 * @throws nothing
 */
export function toolIdentityKey(name: string, origin?: ToolOrigin): string {
  return origin === undefined ? name : `${origin.server}/${origin.name}`;
}

/**
 * Compiles tool-name globs into a rule matcher that decides on a tool's identity, not
 * only its display name: a tool matches when its exposed name or its upstream name
 * (`origin.name`) matches a pattern, or when `server/name` matches a pattern that holds
 * a `/` (`github/delete_*`, `memory/*`). A pattern without `/` is never tested against
 * `server/name`, so that `*delete*` does not match every tool of a server named
 * `delete-svc`.
 *
 * @example
 * ```ts
 * const denied = createToolRuleMatcher(['delete_*', 'github/merge_*']);
 * denied('memory_delete_entities', { server: 'memory', name: 'delete_entities' }); // true
 * denied('merge_pull_request', { server: 'github', name: 'merge_pull_request' }); // true
 * denied('merge_pull_request', { server: 'gitlab', name: 'merge_pull_request' }); // false
 * ```
 *
 * @param patterns - globs, see {@link createGlobMatcher}
 * @returns a predicate over an exposed name and an optional origin; always false for
 * an empty list
 * @throws `ToolSearchError` `invalid_argument` when a pattern is not a string
 */
export function createToolRuleMatcher(
  patterns: readonly string[],
): (name: string, origin?: ToolOrigin) => boolean {
  const any = createGlobMatcher(patterns);
  const qualified = createGlobMatcher(patterns.filter((pattern) => pattern.includes('/')));
  return (name, origin) => {
    if (any(name)) return true;
    if (origin === undefined) return false;
    return any(origin.name) || qualified(`${origin.server}/${origin.name}`);
  };
}
