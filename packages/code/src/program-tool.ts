import { type Assembly, assembleTools } from '@tool-search/bridge';
import type { Ranker, ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { AuditHook, Dispatcher } from '@tool-search/hooks';
import { createCallBudget } from './call-budget.js';
import type { ToolWithOutput } from './declarations.js';
import { type ProgramLimits, resolveLimits } from './limits.js';
import { programDefinition } from './program-definition.js';
import { observeProgram, programObserved } from './program-observe.js';
import type { ProgramPolicy } from './program-policy.js';
import type { RequestScope } from './program-requests.js';
import type {
  ProgramError,
  ProgramResult,
  ProgramRunContext,
  ProgramTool,
} from './program-types.js';
import { type ProgramWorkerPool, poolOf } from './program-worker-pool.js';
import { runProgram } from './run-program.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

/** Options of {@link createProgramTool}. */
export interface ProgramToolOptions {
  /**
   * The session's scoped tools a program may reach (a function is asked at each run, for
   * a list that changes). Tools may carry an `outputSchema` for `tools.describe`.
   */
  tools: readonly ToolWithOutput[] | (() => readonly ToolWithOutput[]);
  /**
   * The host's dispatcher (`createDispatcher` of `@tool-search/hooks`): every nested call
   * goes through it with `via: 'program'` and `programId`, like a direct call.
   */
  dispatch: Dispatcher;
  /** Changes to the default limits (`DEFAULT_PROGRAM_LIMITS`). */
  limits?: Partial<ProgramLimits>;
  /**
   * The program policy: programs' `tools.search` and `tools.describe` show only the tools
   * it allows. It enforces nothing here: put the same policy in the dispatcher's guardrails.
   */
  policy?: ProgramPolicy;
  /**
   * Asked before each `tools.search` of a program: an answer refuses that search (the
   * program's caught error has its `error` as message and its `code`). Give the host
   * session's runaway-search budget here (`admitSearch(sessionAssembly)` of
   * `@tool-search/bridge`), so that a program's searches spend the session's one budget.
   */
  admitSearch?: () => { error: string; code: string } | undefined;
  /** Records calls refused before dispatch (names outside the program's reach). */
  audit?: Pick<AuditHook, 'recordRefusal'>;
  /** The ranker of `tools.search`. @defaultValue core's default */
  ranker?: Ranker;
  /**
   * A worker pool to run in, shared with other program tools (`createProgramWorkerPool`),
   * e.g. one per process for every session of a server. Its owner closes it: the tool's
   * `close()` leaves a given pool running. `poolSize`, `maxConcurrentPrograms` and
   * `workerHeapMb` are then the pool's, not these.
   */
  pool?: ProgramWorkerPool;
  /** Workers kept warm. @defaultValue 2 */
  poolSize?: number;
  /**
   * Programs running at once (each in its own worker); more wait for a worker (the wait
   * does not count against their limits). @defaultValue 4
   */
  maxConcurrentPrograms?: number;
  /** Each worker's V8 heap limit in MiB, besides the interpreter's own limit. @defaultValue 96 */
  workerHeapMb?: number;
}

// Every reachable tool goes into one catalog: a program reaches core tools as well as
// deferred ones, so each is presented as deferrable to the bridge's resolution, which then
// applies its checks (name, scope, arguments) the same way to all.
// The deferrable copy of each tool is kept per tool object, so that an unchanged list
// keeps its catalog (and the ranker's index) from one run to the next.
function programAssembly(
  tools: readonly ToolWithOutput[],
  options: ProgramToolOptions,
  state: ProgramToolState,
): Assembly {
  const deferrable = tools.map((tool) => {
    let copy = state.copies.get(tool);
    if (copy === undefined) {
      const { alwaysLoad: _pinned, ...rest } = tool;
      copy = { ...rest, source: tool.source === 'mcp' ? 'mcp' : 'plugin' };
      state.copies.set(tool, copy);
    }
    return copy;
  });
  const assembly = assembleTools({
    tools: deferrable,
    config: { enabled: 'on' },
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
    ...(state.previous === undefined ? {} : { previous: state.previous }),
  });
  state.previous = assembly;
  return assembly;
}

/** The state a program tool holds across runs. */
interface ProgramToolState {
  pool: WorkerPool;
  limits: ProgramLimits;
  previous?: Assembly;
  copies: WeakMap<ToolDefinition, ToolDefinition>;
}

function inputError(programId: string, error: ProgramError): ProgramResult {
  return { status: 'error', programId, logs: [], calls: [], error, cpuMs: 0, durationMs: 0 };
}

async function run(
  state: ProgramToolState,
  options: ProgramToolOptions,
  input: unknown,
  context: ProgramRunContext = {},
): Promise<ProgramResult> {
  const programId = globalThis.crypto.randomUUID();
  const source =
    typeof input === 'object' && input !== null
      ? (input as { source?: unknown }).source
      : undefined;
  if (typeof source !== 'string' || source.trim() === '') {
    return inputError(programId, {
      code: 'invalid_argument',
      message:
        "tool_program needs { source: string }: the body of an async function, e.g. `return await tools.search('weather')`",
    });
  }
  const size = Buffer.byteLength(source, 'utf8');
  if (size > state.limits.maxSourceBytes) {
    return inputError(programId, {
      code: 'program_source_too_large',
      message: `the source has ${size} bytes, more than the limit of ${state.limits.maxSourceBytes} (limits.maxSourceBytes); write a shorter program`,
    });
  }
  let tools: readonly ToolWithOutput[];
  let assembly: Assembly;
  try {
    tools =
      context.tools ?? (typeof options.tools === 'function' ? options.tools() : options.tools);
    assembly = programAssembly(tools, options, state);
  } catch (error) {
    const message = `the program tool's tools could not be assembled: ${describeError(error)}`;
    return inputError(programId, { code: 'invalid_argument', message });
  }
  const abort = new AbortController();
  const scope: RequestScope = {
    programId,
    signal: abort.signal,
    assembly,
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    dispatch: context.dispatch ?? options.dispatch,
    limits: state.limits,
    budget: createCallBudget(state.limits),
    calls: [],
    ...(context.sessionId === undefined ? {} : { sessionId: context.sessionId }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    ...(options.admitSearch === undefined ? {} : { admitSearch: options.admitSearch }),
    ...(context.dispatchContext === undefined ? {} : { dispatchContext: context.dispatchContext }),
  };
  const start = () => runProgram(state.pool, scope, abort, source, context.signal);
  return programObserved() ? observeProgram(scope, start) : start();
}

/**
 * Creates `tool_program`, the fourth bridge tool: the model writes a short program
 * (the body of an async function) and it runs in a QuickJS sandbox (WebAssembly, in a
 * pool of worker threads; a fresh context per program; no `process`, `require`, `fetch`,
 * timers, `WebAssembly` or file system inside). Inside, `await tools.search(query)`,
 * `await tools.describe(name)` (a TypeScript declaration), `await tools.call(name, args)`
 * and `await tools.<name>(args)`; a refused or failed call throws a `ToolCallError` with
 * `status` (`'denied' | 'error' | 'cancelled'`) and `reason`. Every nested call is resolved
 * like `tool_call` and then dispatched through `options.dispatch` with `via: 'program'`.
 *
 * @example
 * ```ts
 * const program = createProgramTool({ tools: scoped, dispatch });
 * const assembly = assembleTools({ tools: scoped, program });
 * // when the model calls tool_program:
 * const result = await program.run(call.arguments, { sessionId, signal });
 * ```
 *
 * @param options - see {@link ProgramToolOptions}
 * @returns the {@link ProgramTool}
 * @throws `ToolSearchError` `invalid_argument` when `tools` or `dispatch` is missing, or a
 * limit is unknown or not a positive number
 */
export function createProgramTool(options: ProgramToolOptions): ProgramTool {
  if (typeof options?.dispatch !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'createProgramTool needs { dispatch }: the dispatcher every nested call goes through.',
      { data: { field: 'dispatch' } },
    );
  }
  if (!Array.isArray(options.tools) && typeof options.tools !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      "createProgramTool needs { tools }: the session's scoped tools, or a function that answers them.",
      { data: { field: 'tools' } },
    );
  }
  const limits = resolveLimits(options.limits);
  const shared = options.pool === undefined ? undefined : poolOf(options.pool);
  const state: ProgramToolState = {
    limits,
    copies: new WeakMap(),
    pool:
      shared ??
      createWorkerPool({
        size: options.poolSize ?? 2,
        maxHeapMb: options.workerHeapMb ?? 96,
        maxBusy: options.maxConcurrentPrograms ?? 4,
      }),
  };
  return {
    definition: programDefinition(limits),
    run: (input, context) => run(state, options, input, context),
    warm: () => state.pool.warm(),
    // A shared pool is its owner's to close.
    close: () => (shared === undefined ? state.pool.close() : Promise.resolve()),
  };
}
