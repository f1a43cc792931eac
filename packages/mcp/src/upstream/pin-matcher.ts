import type { ToolOrigin } from '@tool-search/core';
import { createToolRuleMatcher } from '@tool-search/hooks';

/**
 * A matcher over tools for pins, on the same identity as every other policy: a tool
 * matches when its exposed name or its upstream name matches one of the globs (`*`,
 * `?`), or its `server/name` matches a glob that holds a `/` (`github/*`), so that a pin
 * survives the server prefix that a name collision adds.
 */
export function createPinMatcher(
  patterns: readonly string[],
): (exposedName: string, origin: ToolOrigin) => boolean {
  if (patterns.length === 0) return () => false;
  return createToolRuleMatcher(patterns);
}
