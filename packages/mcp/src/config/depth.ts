/** The deepest nesting a gateway config may have: far beyond any real one. */
export const MAX_CONFIG_DEPTH = 64;

/**
 * Finds where a JSON value nests deeper than `maxDepth` arrays and objects, without
 * recursion (a deep value must not overflow the stack that is checking it).
 *
 * @param value - a parsed JSON value
 * @param maxDepth - the deepest nesting allowed @defaultValue {@link MAX_CONFIG_DEPTH}
 * @returns the path of the first value past the limit, or `undefined` when none is
 * @throws nothing
 */
export function findTooDeep(
  value: unknown,
  maxDepth: number = MAX_CONFIG_DEPTH,
): PropertyKey[] | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: item, path } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (path.length >= maxDepth) return path;
    const entries: [PropertyKey, unknown][] = Array.isArray(item)
      ? item.map((child, index) => [index, child])
      : Object.entries(item);
    for (const [key, child] of entries) stack.push({ value: child, path: [...path, key] });
  }
  return undefined;
}
