import type { ToolCall } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import type { PreparedTools } from './plan.js';
import { restoreStrictArguments } from './strict-schema.js';
import { renderToolOutcome } from './tool-outcome.js';

/** The output of a function call (`Responses.ResponseInputItem.FunctionCallOutput`). */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
  /** The program whose call this answers, for a call made from a program. */
  caller?: { type: 'program'; caller_id: string };
}

/**
 * The call a `function_call` item stands for, in the session's terms: the name mapped
 * back with `prepared.names`, the JSON arguments parsed, and, when the preparation was
 * strict, the `null`s strict mode asked for dropped against the tool's own schema
 * ({@link restoreStrictArguments}), so no schema needs looking up (not for a function a
 * program may call: those are sent without strict mode). Dispatch it as usual.
 *
 * @param prepared - the preparation of the request the item came from
 * @param item - the `function_call` item (`call_id`, `name`, `arguments` as JSON text)
 * @returns the call, `{ id, name, arguments }`
 * @throws `ToolSearchError` `invalid_argument` when `arguments` is not JSON text of an object (`data.tool` names the call)
 */
export function toolCallFromOpenAI(
  prepared: Pick<PreparedTools<unknown>, 'names' | 'catalog' | 'strict'> &
    Partial<Pick<PreparedTools<unknown>, 'programmatic'>>,
  item: { call_id: string; name: string; arguments: string },
): ToolCall {
  const name = prepared.names.fromProvider(item.name) ?? item.name;
  let parsed: unknown;
  try {
    parsed = item.arguments.trim() === '' ? {} : JSON.parse(item.arguments);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolSearchError(
      'invalid_argument',
      `The arguments of the call of '${name}' are not JSON text of an object. Answer the call with an error output, e.g. toOpenAIFunctionOutput(call_id, { error }).`,
      { data: { tool: name } },
    );
  }
  // Functions a program may call are sent without strict mode: nothing to restore.
  const strict = prepared.strict && prepared.programmatic?.tools.includes(name) !== true;
  const schema = strict ? (prepared.catalog.get(name)?.inputSchema ?? undefined) : undefined;
  const args = schema === undefined ? parsed : restoreStrictArguments(schema, parsed);
  return { id: item.call_id, name, arguments: args as Record<string, unknown> };
}

/**
 * The `function_call_output` item for what a function call came to, in every mode: a
 * dispatcher outcome (`DispatchResult` of `@tool-search/hooks`) gives the tool's result
 * alone, or `Denied: …` / `Error: …` / `Cancelled: …`; a bridge answer
 * (`handleBridgeCall`, `bridge` mode) gives its content. The call's arguments are never
 * echoed back.
 *
 * @example
 * ```ts
 * input.push(item, toOpenAIFunctionOutput(item.call_id, await dispatch(toolCallFromOpenAI(prepared, item))));
 * ```
 *
 * @param callId - the `function_call` item's `call_id`
 * @param outcome - what the dispatcher or the bridge answered
 * @returns the item to append to the next request's input
 * @throws nothing
 */
export function toOpenAIFunctionOutput(callId: string, outcome: unknown): OpenAIFunctionCallOutput {
  return { type: 'function_call_output', call_id: callId, output: renderToolOutcome(outcome).text };
}
