import { z } from 'zod/v4';

/** An entry of a requested list that is not a toolset name, kept in order for its refusal. */
export interface NotAToolsetName {
  readonly notAName: unknown;
}

/** A requested list as parsed: a list of entries, or a value that is not a list. */
export type RequestedList =
  | { readonly kind: 'list'; readonly entries: readonly (string | NotAToolsetName)[] }
  | { readonly kind: 'invalid'; readonly value: unknown };

const entrySchema = z.union([
  z.string(),
  z.unknown().transform((value): NotAToolsetName => ({ notAName: value })),
]);

// Never fails: a field is absent (`undefined`), a list or not a list; the narrowing decides
// what each means.
const listSchema = z
  .union([
    z.array(entrySchema).transform((entries): RequestedList => ({ kind: 'list', entries })),
    z.unknown().transform((value): RequestedList => ({ kind: 'invalid', value })),
  ])
  .optional();

/**
 * The schema of a subagent's scope request, as untrusted input: an object whose
 * `enabledToolsets` and `disabledToolsets` are each absent (`undefined` when parsed), a
 * list (each entry a toolset name or not) or something else. Only a value that is not an
 * object fails it.
 */
export const scopeRequestSchema = z.object({
  enabledToolsets: listSchema,
  disabledToolsets: listSchema,
});

/** A scope request parsed by {@link scopeRequestSchema}. */
export type ScopeRequest = z.output<typeof scopeRequestSchema>;

/**
 * Parses an untrusted scope request. Reading it never throws: a getter or proxy that
 * throws makes it unreadable, like a value that is not an object.
 *
 * @param value - the request as received
 * @returns the parsed request, or `undefined` when it is not a readable object
 * @throws nothing
 */
export function parseScopeRequest(value: unknown): ScopeRequest | undefined {
  try {
    const parsed = scopeRequestSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
