/**
 * A number as a config may write it: a finite number, or a string that, trimmed,
 * matches `pattern` (read with `Number`). What zod's
 * `z.union([z.number().finite(), z.string().trim().regex(pattern).transform(Number)])`
 * accepts, without loading zod on the import path (number-input.test.ts compares them).
 *
 * @param value - the value as written
 * @param pattern - the digits a string may hold, anchored
 * @returns the number, or `undefined` when the value is not one
 * @throws nothing
 * @internal
 */
export function numberInput(value: unknown, pattern: RegExp): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return pattern.test(text) ? Number(text) : undefined;
}
