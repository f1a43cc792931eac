/**
 * Whether a value is a plain record to read fields from: an object, not `null`, not an
 * array. The one check every `@tool-search/*` package uses on untrusted input (siblings
 * import it from `@tool-search/core/internal`).
 *
 * @param value - any value
 * @returns true for an object that is not `null` and not an array
 * @throws nothing
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
