import { DEFAULT_PROGRAM_LIMITS, type ProgramLimits } from '@tool-search/code';
import { z } from 'zod/v4';
import { camelKeys } from './issues.js';

// The `programs` section: tool_program served to every client when enabled, with the
// program policy (which tools programs may call) and the limits of each program.

const pattern = z.string().min(1, 'must not be empty');
const positiveInteger = z.number().int().positive();

/** Every limit of `createProgramTool` (`DEFAULT_PROGRAM_LIMITS`), each optional. */
const limitsShape = Object.fromEntries(
  Object.keys(DEFAULT_PROGRAM_LIMITS).map((key) => [key, positiveInteger.optional()]),
) as Record<keyof ProgramLimits, z.ZodOptional<typeof positiveInteger>>;

/**
 * The schema of `programs.limits`: changes to the defaults of `@tool-search/code`
 * (`ProgramLimits`, each a positive integer).
 */
export const programLimitsSchema: z.ZodType<Partial<ProgramLimits>> = z.preprocess(
  camelKeys,
  z.strictObject(limitsShape),
);

/** The schema of `programs.workers`: the gateway's one pool of sandbox workers. */
export const programWorkersSchema = z.preprocess(
  camelKeys,
  z.strictObject({
    /** Workers kept warm. @defaultValue 2 */
    size: positiveInteger.optional(),
    /** Programs running at once over every session; more wait for a worker. @defaultValue 4 */
    maxConcurrentPrograms: positiveInteger.optional(),
    /** Each worker's V8 heap limit in MiB. @defaultValue 96 */
    workerHeapMb: positiveInteger.optional(),
  }),
);

/** The schema of `programs` (also accepted as `program`). */
export const programsSchema = z.strictObject({
  /**
   * Serve `tool_program` to every session (a profile's `programs: false` turns it off
   * there, `programs: true` on there alone). @defaultValue false
   */
  enabled: z.boolean().optional().default(false),
  /**
   * Let programs call every read-only tool: one `readOnlyTools` names, or one marked
   * `readOnlyHint: true` (and not `destructiveHint: true`) by a server the operator
   * vouches for (`trusted: true`, or `review.hold: 'new-and-changed'`). An untrusted
   * server's own annotation never makes a tool read-only. Without it, only the tools
   * `allow` lists. @defaultValue true
   */
  readOnly: z.boolean().optional().default(true),
  /**
   * Tools the operator says are read-only, whatever their annotations: programs may call
   * them (with `readOnly`) and their calls do not count against `limits.maxWrites`. Globs
   * matched against the exposed name, the upstream name and `server/name`. @defaultValue []
   */
  readOnlyTools: z.array(pattern).optional().default([]),
  /**
   * Tools programs may call whatever their annotations say: globs (`*`, `?`) matched
   * against the exposed name, the upstream name and `server/name`. @defaultValue []
   */
  allow: z.array(pattern).optional().default([]),
  /** Tools programs may never call, even read-only or allowed ones. @defaultValue [] */
  deny: z.array(pattern).optional().default([]),
  /** Changes to each program's limits (time, memory, calls, writes, sizes). */
  limits: programLimitsSchema.optional().default({}),
  /** The gateway's pool of sandbox workers, shared by every session. */
  workers: programWorkersSchema.optional().default({}),
});

/**
 * The `programs` section of a gateway config: whether the gateway serves `tool_program`
 * (a sandboxed program over the session's tools, each nested call through the session's
 * guardrails, approvals and audit), which tools programs may call, and their limits.
 */
export interface ProgramsConfig extends z.output<typeof programsSchema> {}

/** Programs off: the default when the config has no `programs` section. */
export const DEFAULT_PROGRAMS_CONFIG: ProgramsConfig = programsSchema.parse({});

/**
 * The limits the gateway gives its programs: the config's, and, unless the config sets
 * them, a call time of at least `approval.timeoutMs` (a nested call may wait that long for
 * a person) and a wall time of at least the call time. The others are the defaults of
 * `@tool-search/code` (`DEFAULT_PROGRAM_LIMITS`).
 *
 * @param programs - the `programs` section
 * @param approval - the `approval` section
 * @returns every limit the gateway sets
 * @throws nothing
 */
export function gatewayProgramLimits(
  programs: Pick<ProgramsConfig, 'limits'>,
  approval: { timeoutMs: number },
): ProgramLimits {
  const limits: ProgramLimits = { ...DEFAULT_PROGRAM_LIMITS, ...dropUnset(programs.limits) };
  const set = programs.limits;
  if (set.callTimeoutMs === undefined) {
    limits.callTimeoutMs = Math.max(DEFAULT_PROGRAM_LIMITS.callTimeoutMs, approval.timeoutMs);
  }
  if (set.wallTimeMs === undefined) {
    limits.wallTimeMs = Math.max(DEFAULT_PROGRAM_LIMITS.wallTimeMs, limits.callTimeoutMs);
  }
  return limits;
}

function dropUnset(limits: Partial<ProgramLimits>): Partial<ProgramLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
