/**
 * A key that two JSON values share exactly when JSON Schema calls them equal: numbers
 * by value (`1` and `1.0` are one number), objects whatever the order of their keys.
 */
function canonical(value: unknown, depth: number): string {
  if (depth > 512) throw new RangeError('the items are nested too deeply to compare');
  if (value === null || typeof value !== 'object') {
    return typeof value === 'number' ? `n${String(value)}` : (JSON.stringify(value) ?? 'u');
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonical(item, depth + 1)).join(',')}]`;
  }
  const keys = Object.keys(value).sort();
  return `{${keys
    .map(
      (key) =>
        `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key], depth + 1)}`,
    )
    .join(',')}}`;
}

/**
 * The indexes of two equal items (the later first, as ajv reports them), or
 * `undefined` when every item differs. One hashing pass, linear in the items' size
 * (ajv's own check compares every pair).
 *
 * @param items - the array
 * @returns `[j, i]` with `items[i]` equal to `items[j]` and `i < j`, or `undefined`
 * @throws `RangeError` for items nested more than 512 levels deep
 */
export function duplicateItems(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const key = canonical(items[index], 0);
    const earlier = seen.get(key);
    if (earlier !== undefined) return [index, earlier];
    seen.set(key, index);
  }
  return undefined;
}
