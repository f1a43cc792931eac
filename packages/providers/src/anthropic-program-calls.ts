import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import {
  type AnthropicToolResult,
  toAnthropicToolResult,
  toolCallFromAnthropic,
} from './anthropic-results.js';
import { noteDispatched, type PreparedTools } from './plan.js';
import {
  type ProgramDispatchOptions,
  type ProviderDispatch,
  programRefusal,
  type RoutedToolCall,
  refuseRouted,
  shownName,
} from './programmatic.js';

/** A `tool_use` block as a response carries it (`Anthropic.ToolUseBlock`), `caller` and all. */
export interface AnthropicToolUse {
  id: string;
  name: string;
  input: unknown;
  /** `{ type: 'direct' }`, or `{ type: 'code_execution_20260120', tool_id }` for a program's call. */
  caller?: unknown;
}

/** What {@link AnthropicProgramState.observe} reads of a response (`Anthropic.Message`). */
export interface AnthropicMessageShape {
  container?: { id: string } | null;
  content: readonly unknown[];
}

/**
 * The loop's memory of Anthropic's programs across requests: the container of the last
 * response (pass it on, or the program's state is lost and its pending calls cannot be
 * answered) and the code execution calls seen (the programs a nested call may name).
 * Hold one per conversation, beside its messages.
 */
export interface AnthropicProgramState {
  /** The container id of the last response that had one. */
  readonly container: string | undefined;
  /**
   * Reads a response: its container id and the ids of its code execution calls.
   * @param message - the response
   */
  observe(message: AnthropicMessageShape): void;
  /**
   * The fields to spread into the next request: `{ container }` once a response had one.
   * @returns `{ container }` or `{}`
   */
  requestFields(): { container?: string };
  /**
   * Whether a code execution call with this id was seen.
   * @param programId - the `caller.tool_id` of a nested call
   */
  knows(programId: string): boolean;
}

/**
 * Creates the state a loop with Anthropic's programmatic tool calling holds: call
 * `observe(message)` on every response and spread `requestFields()` into every request.
 *
 * @example
 * ```ts
 * const programs = createAnthropicProgramState();
 * const message = await client.messages.create({ ...params, ...programs.requestFields() });
 * programs.observe(message);
 * ```
 *
 * @returns a fresh state
 * @throws nothing
 */
export function createAnthropicProgramState(): AnthropicProgramState {
  let container: string | undefined;
  const programs = new Set<string>();
  return {
    get container() {
      return container;
    },
    observe(message) {
      if (!isRecord(message)) return;
      const id = isRecord(message.container) ? message.container['id'] : undefined;
      if (typeof id === 'string' && id !== '') container = id;
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (!isRecord(block) || block['type'] !== 'server_tool_use') continue;
        if (block['name'] === 'code_execution' && typeof block['id'] === 'string') {
          programs.add(block['id']);
        }
      }
    },
    requestFields: () => (container === undefined ? {} : { container }),
    knows: (programId) => programs.has(programId),
  };
}

type Caller =
  | { kind: 'direct' }
  | { kind: 'program'; programId: string }
  | { kind: 'bad'; reason: string };

function readCaller(caller: unknown, expected: string | undefined): Caller {
  if (caller === undefined || caller === null) return { kind: 'direct' };
  if (!isRecord(caller) || typeof caller['type'] !== 'string') {
    return { kind: 'bad', reason: 'its caller is not an object with a type' };
  }
  const type = caller['type'];
  if (type === 'direct') return { kind: 'direct' };
  const toolId = caller['tool_id'];
  if (typeof toolId !== 'string' || toolId === '') {
    return { kind: 'bad', reason: `its caller '${shownName(type)}' has no tool_id` };
  }
  if (type !== expected) {
    return {
      kind: 'bad',
      reason: `its caller type '${shownName(type)}' is not the code execution tool of this request`,
    };
  }
  return { kind: 'program', programId: toolId };
}

/**
 * How to answer one `tool_use` block, by its `caller`: a direct call (no caller, or
 * `{ type: 'direct' }`) is dispatched as one; a call from a program (the request's code
 * execution tool type and a `tool_id`) is dispatched with `via: 'program'` and the code
 * execution call's id as `programId`, but only for a tool the preparation offered to
 * programs, and, with `state`, only from a code execution call the loop has seen. Any
 * other caller (a forged or unknown type, a malformed object, a program call of a tool
 * without program `allowed_callers`, an unknown tool) is refused before dispatch: nothing
 * runs, and the refusal is an error result the model reads. `allowed_callers` is no
 * security boundary: also put the same program policy in the dispatcher's guardrails.
 *
 * @param prepared - the preparation of the request the block came from
 * @param toolUse - the `tool_use` block
 * @param state - the loop's {@link AnthropicProgramState}, to check the program id
 * @returns the call and its context, or the refusal
 * @throws `ToolSearchError` `invalid_argument` when `toolUse` is not an object with a string `id` (there is nothing to answer)
 */
export function routeAnthropicToolUse(
  prepared: Pick<PreparedTools<unknown>, 'names' | 'programmatic'>,
  toolUse: AnthropicToolUse,
  state?: Pick<AnthropicProgramState, 'knows'>,
): RoutedToolCall {
  if (!isRecord(toolUse) || typeof toolUse.id !== 'string') {
    throw new ToolSearchError(
      'invalid_argument',
      'routeAnthropicToolUse needs a tool_use block with a string id.',
    );
  }
  const caller = readCaller(toolUse.caller, prepared.programmatic?.caller);
  if (typeof toolUse.name !== 'string') {
    const via = caller.kind === 'direct' ? 'direct' : 'program';
    return { ok: false, name: shownName(toolUse.name), via, reason: 'the call has no tool name.' };
  }
  const call = toolCallFromAnthropic(prepared, toolUse);
  if (caller.kind === 'direct') return { ok: true, call, context: { via: 'direct' } };
  const name = shownName(call.name);
  if (prepared.programmatic === undefined) {
    const reason = programRefusal(undefined, call.name) as string;
    return { ok: false, name, via: 'program', reason };
  }
  if (caller.kind === 'bad') {
    return {
      ok: false,
      name,
      via: 'program',
      reason: `the call of '${name}' was refused: ${caller.reason}.`,
    };
  }
  const { programId } = caller;
  if (state !== undefined && !state.knows(programId)) {
    return {
      ok: false,
      name,
      via: 'program',
      programId,
      reason: `the call of '${name}' names a program '${shownName(programId)}' that no response of this conversation started.`,
    };
  }
  const refusal = programRefusal(prepared.programmatic, call.name);
  if (refusal !== undefined) return { ok: false, name, via: 'program', programId, reason: refusal };
  return { ok: true, call, context: { via: 'program', programId } };
}

/** Options of {@link dispatchAnthropicToolUse}: the program state, the dispatch context, the audit sink. */
export type DispatchAnthropicOptions = ProgramDispatchOptions;

/**
 * Answers one `tool_use` block through the dispatcher: routes it
 * ({@link routeAnthropicToolUse}), dispatches a direct call with `via: 'direct'` and a
 * program's call with `via: 'program'` and its `programId` (so guardrails, approvals and
 * audit see the route), and turns the outcome into the `tool_result` block. A call
 * refused before dispatch answers `Denied: …` with `is_error: true` and is recorded to
 * `audit`. A program reads an error result as a failed call it can handle.
 *
 * @example
 * ```ts
 * for (const block of message.content) {
 *   if (block.type === 'tool_use') results.push(await dispatchAnthropicToolUse(prepared, block, dispatch, { state: programs }));
 * }
 * ```
 *
 * @param prepared - the preparation of the request the block came from
 * @param toolUse - the `tool_use` block
 * @param dispatch - the dispatcher (`createDispatcher(...)` of `@tool-search/hooks`)
 * @param options - the program state, the dispatch context, the audit sink
 * @returns the `tool_result` block for the next user message
 * @throws `ToolSearchError` `invalid_argument` when `toolUse` has no string `id`; whatever `dispatch` throws (a hooks dispatcher never throws)
 */
export async function dispatchAnthropicToolUse(
  prepared: Pick<PreparedTools<unknown>, 'names' | 'programmatic' | 'learning'>,
  toolUse: AnthropicToolUse,
  dispatch: ProviderDispatch,
  options: DispatchAnthropicOptions = {},
): Promise<AnthropicToolResult> {
  const routed = routeAnthropicToolUse(prepared, toolUse, options.state);
  if (!routed.ok) {
    const refused = await refuseRouted(options.audit, routed, toolUse.id, options.context);
    noteDispatched(prepared, routed.name, refused);
    return toAnthropicToolResult(toolUse.id, refused);
  }
  const outcome = await dispatch(routed.call, { ...options.context, ...routed.context });
  noteDispatched(prepared, routed.call.name, outcome);
  return toAnthropicToolResult(toolUse.id, outcome);
}
