// A worker pool that several program tools share: a server makes one at start, hands it
// to the program tool of each session and closes it at shutdown.
import { ToolSearchError } from '@tool-search/core';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

const POOL = Symbol('tool-search.program-worker-pool');

/** A pool of sandbox workers shared by program tools (see {@link createProgramWorkerPool}). */
export interface ProgramWorkerPool {
  /** Starts workers until `size` are warm; resolves when they are ready. */
  warm(): Promise<void>;
  /** Terminates every worker: programs still running end as `program_sandbox_failed`. */
  close(): Promise<void>;
  /** @internal */
  readonly [POOL]: WorkerPool;
}

/** Options of {@link createProgramWorkerPool}. */
export interface ProgramWorkerPoolOptions {
  /** Workers kept warm. @defaultValue 2 */
  size?: number;
  /** Programs running at once, over every tool sharing the pool; more wait. @defaultValue 4 */
  maxConcurrentPrograms?: number;
  /** Each worker's V8 heap limit in MiB, besides the interpreter's own limit. @defaultValue 96 */
  workerHeapMb?: number;
}

function positive(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new ToolSearchError(
    'invalid_argument',
    `createProgramWorkerPool: ${field} must be a positive integer, got ${String(value)}.`,
    { data: { field } },
  );
}

/**
 * Creates a pool of sandbox workers (QuickJS in worker threads) for program tools to
 * share: pass it as `pool` to each {@link createProgramTool}, e.g. one pool per process
 * for every session of a server. Nothing starts until the first program or `warm()`;
 * the owner closes it (a program tool's `close()` leaves a shared pool running).
 *
 * @example
 * ```ts
 * const workers = createProgramWorkerPool({ size: 2 });
 * const program = createProgramTool({ tools: scoped, dispatch, pool: workers });
 * // at shutdown
 * await workers.close();
 * ```
 *
 * @param options - see {@link ProgramWorkerPoolOptions}
 * @returns the pool
 * @throws `ToolSearchError` `invalid_argument` when an option is not a positive integer
 */
export function createProgramWorkerPool(options: ProgramWorkerPoolOptions = {}): ProgramWorkerPool {
  const pool = createWorkerPool({
    size: positive(options.size, 'size', 2),
    maxBusy: positive(options.maxConcurrentPrograms, 'maxConcurrentPrograms', 4),
    maxHeapMb: positive(options.workerHeapMb, 'workerHeapMb', 96),
  });
  return { warm: () => pool.warm(), close: () => pool.close(), [POOL]: pool };
}

/**
 * The worker pool behind a shared pool.
 *
 * @throws `ToolSearchError` `invalid_argument` when `shared` was not made by
 * {@link createProgramWorkerPool}
 */
export function poolOf(shared: ProgramWorkerPool): WorkerPool {
  const pool = (shared as Partial<ProgramWorkerPool> | null)?.[POOL];
  if (pool === undefined) {
    throw new ToolSearchError(
      'invalid_argument',
      'createProgramTool: pool must come from createProgramWorkerPool().',
      { data: { field: 'pool' } },
    );
  }
  return pool;
}
