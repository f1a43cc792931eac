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

/**
 * Reads a field of an untrusted object: an own property, or a getter of a class
 * instance (an SDK's call object), never something inherited from `Object.prototype`;
 * `undefined` when reading throws.
 *
 * @param record - any value
 * @param key - the field's name
 * @returns the field's value, or `undefined`
 * @throws nothing
 */
export function ownValue(record: unknown, key: string): unknown {
  if (!isRecord(record)) return undefined;
  try {
    if (Object.hasOwn(record, key)) return record[key];
    const prototype = Object.getPrototypeOf(record);
    return prototype !== null && prototype !== Object.prototype && key in record
      ? record[key]
      : undefined;
  } catch {
    return undefined;
  }
}
