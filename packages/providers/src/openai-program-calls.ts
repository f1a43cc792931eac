import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import {
  type OpenAIFunctionCallOutput,
  toOpenAIFunctionOutput,
  toolCallFromOpenAI,
} from './openai-results.js';
import { noteDispatched, type PreparedTools } from './plan.js';
import {
  type ProgramDispatchOptions,
  type ProviderDispatch,
  programRefusal,
  type RoutedToolCall,
  refuseRouted,
  shownName,
} from './programmatic.js';

/** A `function_call` item as a response carries it (`Responses.ResponseFunctionToolCall`). */
export interface OpenAIFunctionCall {
  call_id: string;
  name: string;
  arguments: string;
  /** `{ type: 'direct' }`, or `{ type: 'program', caller_id }` for a program's call. */
  caller?: unknown;
}

/**
 * The loop's memory of OpenAI's programs across requests: the `program` items seen (their
 * `call_id` and replay `fingerprint`). Carry every output item, the `program` items with
 * their fingerprints unchanged, over to the next request's input: the platform replays a
 * program from them. Hold one per conversation, beside its input.
 */
export interface OpenAIProgramState {
  /**
   * Reads a response's output: its `program` items.
   * @param output - `response.output`
   */
  observe(output: readonly unknown[]): void;
  /**
   * The replay fingerprint of a program seen, by its `call_id`.
   * @param callId - the `caller.caller_id` of a nested call
   */
  fingerprint(callId: string): string | undefined;
  /**
   * Whether a program with this `call_id` was seen.
   * @param callId - the `caller.caller_id` of a nested call
   */
  knows(callId: string): boolean;
}

/**
 * Creates the state a loop with OpenAI's programmatic tool calling holds: call
 * `observe(response.output)` on every response.
 *
 * @returns a fresh state
 * @throws nothing
 */
export function createOpenAIProgramState(): OpenAIProgramState {
  const programs = new Map<string, string>();
  return {
    observe(output) {
      for (const item of Array.isArray(output) ? output : []) {
        if (!isRecord(item) || item['type'] !== 'program') continue;
        const callId = item['call_id'];
        const fingerprint = item['fingerprint'];
        if (typeof callId === 'string' && typeof fingerprint === 'string') {
          programs.set(callId, fingerprint);
        }
      }
    },
    fingerprint: (callId) => programs.get(callId),
    knows: (callId) => programs.has(callId),
  };
}

type Caller =
  | { kind: 'direct' }
  | { kind: 'program'; programId: string }
  | { kind: 'bad'; reason: string; programId?: string };

function readCaller(caller: unknown): Caller {
  if (caller === undefined || caller === null) return { kind: 'direct' };
  if (!isRecord(caller) || typeof caller['type'] !== 'string') {
    return { kind: 'bad', reason: 'its caller is not an object with a type' };
  }
  const type = caller['type'];
  if (type === 'direct') return { kind: 'direct' };
  if (type !== 'program') {
    return { kind: 'bad', reason: `its caller type '${shownName(type)}' is not 'program'` };
  }
  const callerId = caller['caller_id'];
  if (typeof callerId !== 'string' || callerId === '') {
    return { kind: 'bad', reason: 'its program caller has no caller_id' };
  }
  return { kind: 'program', programId: callerId };
}

/**
 * How to answer one `function_call` item, by its `caller`: a direct call (no caller, or
 * `{ type: 'direct' }`) is dispatched as one; a program's call (`{ type: 'program',
 * caller_id }`) is dispatched with `via: 'program'` and the program item's `call_id` as
 * `programId`, but only for a function the preparation offered to programs, only when
 * the request enabled `programmatic_tool_calling`, and, with `state`, only from a program
 * item the loop has seen. Any other caller (a forged type, a malformed object, a program
 * call of a function without `allowed_callers: ['programmatic', …]`, an unknown name, or
 * arguments that are not JSON of an object) is refused before dispatch: nothing runs,
 * and the refusal is the output the model or its program reads. `allowed_callers` is no
 * security boundary: also put the same program policy in the dispatcher's guardrails.
 *
 * @param prepared - the preparation of the request the item came from
 * @param item - the `function_call` item
 * @param state - the loop's {@link OpenAIProgramState}, to check the program id
 * @returns the call and its context, or the refusal
 * @throws `ToolSearchError` `invalid_argument` when `item` is not an object with a string `call_id` (there is nothing to answer)
 */
export function routeOpenAIFunctionCall(
  prepared: Pick<PreparedTools<unknown>, 'names' | 'catalog' | 'strict' | 'programmatic'>,
  item: OpenAIFunctionCall,
  state?: Pick<OpenAIProgramState, 'knows'>,
): RoutedToolCall {
  if (!isRecord(item) || typeof item.call_id !== 'string') {
    throw new ToolSearchError(
      'invalid_argument',
      'routeOpenAIFunctionCall needs a function_call item with a string call_id.',
    );
  }
  const caller = readCaller(item.caller);
  const via = caller.kind === 'direct' ? 'direct' : 'program';
  if (typeof item.name !== 'string' || typeof item.arguments !== 'string') {
    return {
      ok: false,
      name: shownName(item.name),
      via,
      reason: 'the call has no function name or no arguments text.',
    };
  }
  const sessionName = prepared.names.fromProvider(item.name) ?? item.name;
  const name = shownName(sessionName);
  if (caller.kind === 'bad') {
    return { ok: false, name, via, reason: `the call of '${name}' was refused: ${caller.reason}.` };
  }
  if (caller.kind === 'program') {
    const { programId } = caller;
    if (state !== undefined && !state.knows(programId)) {
      return {
        ok: false,
        name,
        via,
        programId,
        reason: `the call of '${name}' names a program '${shownName(programId)}' that no response of this conversation started.`,
      };
    }
    const refusal = programRefusal(prepared.programmatic, sessionName);
    if (refusal !== undefined) return { ok: false, name, via, programId, reason: refusal };
  }
  let call: ReturnType<typeof toolCallFromOpenAI>;
  try {
    call = toolCallFromOpenAI(prepared, item);
  } catch (error) {
    const reason = ToolSearchError.isInstance(error) ? error.message : String(error);
    return { ok: false, name, via, reason };
  }
  if (caller.kind === 'direct') return { ok: true, call, context: { via: 'direct' } };
  return { ok: true, call, context: { via: 'program', programId: caller.programId } };
}

/** Options of {@link dispatchOpenAIFunctionCall}: the program state, the dispatch context, the audit sink. */
export type DispatchOpenAIOptions = ProgramDispatchOptions;

function programCaller(caller: unknown): { caller?: { type: 'program'; caller_id: string } } {
  const read = readCaller(caller);
  return read.kind === 'program' ? { caller: { type: 'program', caller_id: read.programId } } : {};
}

/**
 * Answers one `function_call` item through the dispatcher: routes it
 * ({@link routeOpenAIFunctionCall}), dispatches a direct call with `via: 'direct'` and a
 * program's call with `via: 'program'` and its `programId`, and turns the outcome into
 * the `function_call_output` item, which carries the program `caller` back for a
 * program's call. A call refused before dispatch answers `Denied: …` and is recorded to
 * `audit`. A program reads the output as the function's result and can handle a refusal.
 *
 * @example
 * ```ts
 * programs.observe(response.output);
 * input.push(...response.output);
 * for (const item of response.output) {
 *   if (item.type === 'function_call') input.push(await dispatchOpenAIFunctionCall(prepared, item, dispatch, { state: programs }));
 * }
 * ```
 *
 * @param prepared - the preparation of the request the item came from
 * @param item - the `function_call` item
 * @param dispatch - the dispatcher (`createDispatcher(...)` of `@tool-search/hooks`)
 * @param options - the program state, the dispatch context, the audit sink
 * @returns the `function_call_output` item to append to the next request's input
 * @throws `ToolSearchError` `invalid_argument` when `item` has no string `call_id`; whatever `dispatch` throws (a hooks dispatcher never throws)
 */
export async function dispatchOpenAIFunctionCall(
  prepared: Pick<
    PreparedTools<unknown>,
    'names' | 'catalog' | 'strict' | 'programmatic' | 'learning'
  >,
  item: OpenAIFunctionCall,
  dispatch: ProviderDispatch,
  options: DispatchOpenAIOptions = {},
): Promise<OpenAIFunctionCallOutput> {
  const routed = routeOpenAIFunctionCall(prepared, item, options.state);
  const caller = programCaller(item.caller);
  if (!routed.ok) {
    const refused = await refuseRouted(options.audit, routed, item.call_id, options.context);
    noteDispatched(prepared, routed.name, refused);
    return { ...toOpenAIFunctionOutput(item.call_id, refused), ...caller };
  }
  const outcome = await dispatch(routed.call, { ...options.context, ...routed.context });
  noteDispatched(prepared, routed.call.name, outcome);
  return { ...toOpenAIFunctionOutput(item.call_id, outcome), ...caller };
}
