// One program from start to end on the host: a worker from the pool, the wall limit, the
// caller's signal, the program's requests answered, and the result put together.

import { withContext } from '@tool-search/core/internal';
import type { ProgramLimits } from './limits.js';
import { answerRequest, type RequestScope } from './program-requests.js';
import type { ProgramError, ProgramResult } from './program-types.js';
import type { GuestLimits, GuestOutcome, WorkerMessage } from './protocol.js';
import type { PooledWorker, WorkerPool } from './worker-pool.js';

/** How a run ended, before the result is put together. */
type Ending = { kind: 'outcome'; outcome: GuestOutcome } | { kind: 'killed'; error: ProgramError };

function guestLimits(limits: ProgramLimits): GuestLimits {
  return {
    cpuTimeMs: limits.cpuTimeMs,
    memoryBytes: limits.memoryBytes,
    stackBytes: limits.stackBytes,
    maxResultChars: limits.maxResultChars,
    maxLogChars: limits.maxLogChars,
    maxRequestChars: limits.maxBytesOut,
    // Past every call and lookup the budgets allow, the host would refuse them all anyway.
    maxRequests: limits.maxCalls + limits.maxLookups,
  };
}

function resultOf(
  scope: RequestScope,
  ending: Ending,
  logs: string[],
  startedAt: number,
): ProgramResult {
  const base = {
    programId: scope.programId,
    logs,
    calls: scope.calls,
    durationMs: performance.now() - startedAt,
  };
  if (ending.kind === 'killed') return { ...base, status: 'error', error: ending.error, cpuMs: 0 };
  const { outcome } = ending;
  if (!outcome.ok) {
    return {
      ...base,
      status: 'error',
      error: { code: outcome.code, message: outcome.message },
      cpuMs: outcome.cpuMs,
    };
  }
  const result: ProgramResult = { ...base, status: 'completed', cpuMs: outcome.cpuMs };
  if (outcome.json === undefined) return result;
  if (outcome.resultChars > scope.limits.maxResultChars) {
    result.result = `${outcome.json}…(cut at ${scope.limits.maxResultChars} of ${outcome.resultChars} characters)`;
    result.resultTruncated = true;
  } else {
    result.result = JSON.parse(outcome.json);
  }
  return result;
}

/** What {@link driveWorker} runs, where it collects, and what stops it. */
interface DriveOptions {
  pooled: PooledWorker;
  scope: RequestScope;
  /** The program. */
  source: string;
  /** Collects the program's log lines. */
  logs: string[];
  /** The caller's signal. */
  external: AbortSignal | undefined;
  /** Collects the answers to the program's requests still in flight. */
  inflight: Set<Promise<void>>;
}

/** Waits for the worker's outcome, answering its requests, until the run ends one way or another. */
function driveWorker(options: DriveOptions): Promise<Ending> {
  const { pooled, scope, source, logs, external, inflight } = options;
  const { worker } = pooled;
  return new Promise<Ending>((resolve) => {
    let settled = false;
    const finish = (ending: Ending) => {
      if (settled) return;
      settled = true;
      clearTimeout(wall);
      external?.removeEventListener('abort', onAbort);
      worker.off('exit', onExit);
      resolve(ending);
    };
    const wall = setTimeout(
      () =>
        finish({
          kind: 'killed',
          error: {
            code: 'program_wall_limit',
            message: `the program was still running after ${scope.limits.wallTimeMs} ms (limits.wallTimeMs); it was stopped`,
          },
        }),
      scope.limits.wallTimeMs,
    );
    const onAbort = () =>
      finish({
        kind: 'killed',
        error: { code: 'program_cancelled', message: 'the program was cancelled' },
      });
    const onExit = () =>
      finish({
        kind: 'killed',
        error: {
          code: 'program_sandbox_failed',
          message: 'the sandbox worker stopped unexpectedly',
        },
      });
    external?.addEventListener('abort', onAbort, { once: true });
    worker.once('exit', onExit);
    worker.on('message', (message: WorkerMessage) => {
      if (settled) return;
      if (message.type === 'log') logs.push(message.line);
      else if (message.type === 'done') finish({ kind: 'outcome', outcome: message.outcome });
      else if (message.type === 'request') {
        const ask = () => answerRequest(scope, message.op, message.payload);
        const traced = scope.traceContext;
        const pending = traced === undefined ? ask() : withContext(traced, ask);
        const answered = pending.then((answer) => {
          if (settled) return;
          worker.postMessage(
            answer.ok
              ? { type: 'reply', id: message.id, ok: true, json: answer.json }
              : { type: 'reply', id: message.id, ok: false, failure: answer.failure },
          );
        });
        inflight.add(answered);
        void answered.finally(() => inflight.delete(answered));
      }
    });
    if (external?.aborted) onAbort();
    else worker.postMessage({ type: 'run', source, limits: guestLimits(scope.limits) });
  });
}

/**
 * Runs one program in a worker of the pool and puts its result together. A program that
 * ends normally gives its worker back; one stopped by the wall limit, the caller's
 * signal or a dead worker has its worker terminated.
 *
 * @param pool - the program tool's pool
 * @param scope - the run's scope (its `signal` is aborted here when the run ends)
 * @param abort - aborts `scope.signal`
 * @param source - the program
 * @param external - the caller's signal
 * @returns the result; never rejects
 */
export async function runProgram(
  pool: WorkerPool,
  scope: RequestScope,
  abort: AbortController,
  source: string,
  external: AbortSignal | undefined,
): Promise<ProgramResult> {
  const startedAt = performance.now();
  const logs: string[] = [];
  let pooled: PooledWorker;
  try {
    pooled = await pool.acquire();
  } catch (error) {
    return resultOf(
      scope,
      { kind: 'killed', error: { code: 'program_sandbox_failed', message: String(error) } },
      logs,
      startedAt,
    );
  }
  const inflight = new Set<Promise<void>>();
  const ending = await driveWorker({ pooled, scope, source, logs, external, inflight });
  if (ending.kind === 'killed') pool.discard(pooled);
  else pool.release(pooled);
  // Calls still in flight when the program ended are cancelled, and listed once settled.
  abort.abort();
  await Promise.allSettled([...inflight]);
  return resultOf(scope, ending, logs, startedAt);
}
