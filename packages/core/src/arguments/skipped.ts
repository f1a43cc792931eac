/**
 * A keyword of a tool's input schema that a check left unchecked, and why. The rest
 * of the schema is still checked.
 *
 * @example
 * ```ts
 * { tool: 'fs_read', keyword: 'pattern', pointer: '/properties/path/pattern', cause: 'unsupported',
 *   reason: 'its pattern "^(?!/etc)" needs a feature the linear-time matcher does not have (...)' }
 * ```
 */
export interface SkippedKeyword {
  /** The tool, when the caller named it (`tool` of `validateArguments`). */
  tool?: string;
  /** The keyword: `pattern`, `patternProperties`, `anyOf`, `exclusiveMaximum`, ... */
  keyword: string;
  /** Where it is in the input schema, as a JSON pointer: `/properties/path/pattern`. */
  pointer: string;
  /** Why, in words. */
  reason: string;
  /**
   * `'unsupported'`: the keyword cannot run (a pattern the linear engine does not
   * have, draft-04 `exclusiveMaximum: true` without a `maximum`); it is left out of
   * every check of this schema. `'budget'`: checking it on these arguments would
   * exceed the check's budget (exponential nesting, a pattern program too long for the
   * string); it is left out of this call's check only.
   */
  cause: 'unsupported' | 'budget';
}
