// One modern call of a bridge tool with (or without) a working-set handle: the argument
// taken off before the bridge and the one hooks pipeline see the call, the handle read
// (its names re-checked against the caller's scope), the request's learning made from
// it, and the answer given the next handle.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import { TOOL_CALL } from '@tool-search/core/internal';
import { errorResult } from '../tool-result/error-result.js';
import type { SessionState } from './session-state.js';
import {
  describedBy,
  issueWorkingSet,
  readWorkingSet,
  takesWorkingSet,
  WORKING_SET_ARGUMENT,
  WORKING_SET_TTL_MS,
  type WorkingSetState,
  withWorkingSet,
} from './working-set.js';
import { WorkingSetLearning } from './working-set-learning.js';

/** A call's params with the handle taken off, and the handle as the model sent it. */
export interface TakenWorkingSet<P> {
  /** The params the bridge and the hooks pipeline see (no `working_set`). */
  params: P;
  /** Whether the call is a bridge tool's that takes a handle. */
  takes: boolean;
  /** What the model passed as `working_set` (absent or `null`: none). */
  raw: unknown;
}

/**
 * Takes the `working_set` argument off a bridge tool's call; any other call is left as
 * it is (a tool's own `working_set` argument is its own).
 *
 * @throws nothing
 */
export function takeWorkingSet<P extends { name: string; arguments?: Record<string, unknown> }>(
  params: P,
): TakenWorkingSet<P> {
  const args = params.arguments;
  if (!takesWorkingSet(params.name)) return { params, takes: false, raw: undefined };
  if (args === undefined || !Object.hasOwn(args, WORKING_SET_ARGUMENT)) {
    return { params, takes: true, raw: undefined };
  }
  const { [WORKING_SET_ARGUMENT]: raw, ...rest } = args;
  return { params: { ...params, arguments: rest }, takes: true, raw };
}

/** Who calls, for reading and issuing handles. */
export interface WorkingSetCaller {
  key: Uint8Array;
  principal: string;
  profile: string | undefined;
}

/** One call's working set: the state to call with, and how its answer gets the next handle. */
export interface OpenedWorkingSet {
  /** The answer instead of the call, when the handle was refused. */
  refusal?: CallToolResult;
  /** The credential's state for this call (its assembly learning through the handle). */
  state: SessionState;
  /**
   * The answer with the next handle (a `tool_call` answers one only when it was given one).
   *
   * @throws nothing
   */
  finish(name: string, result: CallToolResult): CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

function refused(error: unknown): CallToolResult {
  const said = ToolSearchError.isInstance(error)
    ? error.message
    : `The ${WORKING_SET_ARGUMENT} is not one this gateway issued.`;
  // What the model can do about it, whatever the check that failed.
  const advice = `without ${WORKING_SET_ARGUMENT}`;
  const message = said.includes(advice)
    ? said
    : `${said} Call again ${advice} to start a new one (nothing was run).`;
  const result = errorResult('invalid_argument', message);
  return {
    ...result,
    structuredContent: { error: message, code: 'invalid_argument', field: WORKING_SET_ARGUMENT },
  };
}

/**
 * Opens a call's working set from what the model passed: none (a new one is started),
 * or a handle read back for this caller (refused: forged, altered, expired, too long,
 * another principal's or another profile's).
 *
 * @param taken - the call's handle, as taken off its arguments
 * @param caller - the key, principal and profile
 * @param state - the credential's current state (scope, learning, assembly)
 * @returns the state to call with and the answer's finisher, or a refusal
 * @throws nothing
 */
export function openWorkingSet(
  taken: TakenWorkingSet<{ name: string }>,
  caller: WorkingSetCaller,
  state: SessionState,
): OpenedWorkingSet {
  const passed = taken.raw !== undefined && taken.raw !== null;
  const identity: OpenedWorkingSet = { state, finish: (_name, result) => result };
  if (!taken.takes) return identity;
  let held: WorkingSetState;
  try {
    if (passed && typeof taken.raw !== 'string') {
      throw new ToolSearchError(
        'invalid_argument',
        `The ${WORKING_SET_ARGUMENT} must be the text an earlier answer gave: call again without it to start a new one.`,
      );
    }
    held = passed
      ? readWorkingSet(taken.raw as string, {
          ...caller,
          inScope: (name) => state.scoped.has(name),
          now: Date.now(),
        })
      : { v: 1, p: caller.principal, e: 0, f: caller.profile ?? '', d: [], s: [] };
  } catch (error) {
    const refusal = refused(error);
    // A handle refused (another client's, forged, expired) is in the audit trail.
    void Promise.resolve()
      .then(() =>
        state.context.auditHook.recordRefusal({
          tool: taken.params.name,
          reason: textOf(refusal),
          via: 'bridge',
          refusedBy: WORKING_SET_ARGUMENT,
          sessionId: state.id,
        }),
      )
      .catch(() => {});
    return { ...identity, refusal };
  }
  const { learner, learningWindow, store } = state.context;
  const learning =
    learner === undefined
      ? undefined
      : new WorkingSetLearning({
          learner,
          profile: caller.profile,
          token: caller.principal,
          window: learningWindow ?? 3,
          searches: held.s,
          shared: state.learning,
          claimOnce: store.claimOnce?.bind(store),
          claimMs: WORKING_SET_TTL_MS + 60_000,
        });
  const assembly = state.assembly;
  const requestState: SessionState =
    learning === undefined || assembly === undefined
      ? state
      : { ...state, assembly: { ...assembly, learning } };
  return {
    state: requestState,
    finish(name, result) {
      if (name === TOOL_CALL && !passed) return result;
      const handle = issueWorkingSet(
        caller.key,
        {
          principal: caller.principal,
          profile: caller.profile,
          described: [...held.d, ...describedBy(name, result)],
          searches: learning?.heldSearches ?? held.s,
        },
        Date.now(),
      );
      return withWorkingSet(name, result, handle);
    },
  };
}
