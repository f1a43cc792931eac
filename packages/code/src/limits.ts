import { ToolSearchError } from '@tool-search/core';

/**
 * The limits of one program. Every one has a default (below); pass only what you change.
 * Sizes of text the program returns or logs are counted in characters (UTF-16 code
 * units); the budgets of what goes in and out through tool calls in UTF-8 bytes of JSON.
 */
export interface ProgramLimits {
  /** The largest source, in UTF-8 bytes. @defaultValue 65_536 */
  maxSourceBytes: number;
  /**
   * Time the program itself may run (the interpreter's interrupt), summed over its
   * slices; time spent waiting on tools and approvals does not count. Measured by the
   * clock while the interpreter runs (Node 20 has no per-thread CPU clock), so a busy
   * machine spends it faster. @defaultValue 5_000
   */
  cpuTimeMs: number;
  /**
   * Time from start to end, waits included; past it the worker is terminated, whatever
   * the program is doing. Keep it above `callTimeoutMs`. @defaultValue 120_000
   */
  wallTimeMs: number;
  /**
   * The longest one nested call may take, an approval's wait for a person included; past
   * it the call is cancelled and throws inside the program with `status: 'cancelled'`.
   * @defaultValue 60_000
   */
  callTimeoutMs: number;
  /** The interpreter's heap. @defaultValue 33_554_432 (32 MiB) */
  memoryBytes: number;
  /** The interpreter's stack. @defaultValue 262_144 (256 KiB) */
  stackBytes: number;
  /** Nested calls of tools a program may make (refused ones count). @defaultValue 50 */
  maxCalls: number;
  /** `tools.search` and `tools.describe` requests a program may make. @defaultValue 50 */
  maxLookups: number;
  /** Nested calls waiting at once; more wait for a free slot. @defaultValue 8 */
  maxCallsInFlight: number;
  /** Calls of tools not marked `readOnlyHint` (writes). @defaultValue 5 */
  maxWrites: number;
  /** UTF-8 bytes of arguments and queries the program sends out, in all. @defaultValue 1_048_576 */
  maxBytesOut: number;
  /** UTF-8 bytes of results handed into the program, in all. @defaultValue 8_388_608 */
  maxBytesIn: number;
  /** Characters of the return value's JSON kept in the result; more is cut. @defaultValue 32_768 */
  maxResultChars: number;
  /** Characters of logs kept; more is cut. @defaultValue 16_384 */
  maxLogChars: number;
}

/** The default {@link ProgramLimits}. */
export const DEFAULT_PROGRAM_LIMITS: Readonly<ProgramLimits> = Object.freeze({
  maxSourceBytes: 65_536,
  cpuTimeMs: 5_000,
  wallTimeMs: 120_000,
  callTimeoutMs: 60_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxCalls: 50,
  maxLookups: 50,
  maxCallsInFlight: 8,
  maxWrites: 5,
  maxBytesOut: 1024 * 1024,
  maxBytesIn: 8 * 1024 * 1024,
  maxResultChars: 32_768,
  maxLogChars: 16_384,
});

/**
 * The limits of a program tool: the defaults with the caller's changes.
 *
 * @param changes - the limits to change
 * @returns every limit
 * @throws `ToolSearchError` `invalid_argument` when a limit is unknown or not a positive number
 */
export function resolveLimits(changes: Partial<ProgramLimits> = {}): ProgramLimits {
  const limits: ProgramLimits = { ...DEFAULT_PROGRAM_LIMITS };
  for (const [key, value] of Object.entries(changes)) {
    if (!Object.hasOwn(DEFAULT_PROGRAM_LIMITS, key)) {
      throw new ToolSearchError('invalid_argument', `createProgramTool: unknown limit '${key}'.`, {
        data: { field: `limits.${key}` },
      });
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0) || Number.isNaN(value)) {
      throw new ToolSearchError(
        'invalid_argument',
        `createProgramTool: limits.${key} must be a positive number, got ${String(value)}.`,
        { data: { field: `limits.${key}` } },
      );
    }
    limits[key as keyof ProgramLimits] = value;
  }
  return limits;
}
