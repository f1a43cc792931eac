import { createGlobMatcher } from '@tool-search/hooks';

/**
 * A matcher over tool names for pins: a tool matches when its exposed name or its
 * upstream name matches one of the globs (`*`, `?`), so that a pin survives the
 * server prefix that a name collision adds.
 */
export function createPinMatcher(
  patterns: readonly string[],
): (exposedName: string, upstreamName: string) => boolean {
  if (patterns.length === 0) return () => false;
  const matches = createGlobMatcher(patterns);
  return (exposedName, upstreamName) => matches(exposedName) || matches(upstreamName);
}
