import { isRecord, ownValue, TOOL_CALL } from '@tool-search/core/internal';

/** What a call shows in an activity feed, a log line or a saved trajectory. */
export interface UnwrappedToolCall {
  /** The provider's call id, when the call had one. */
  id?: string;
  /** The real tool's name (`tool_call` only when the wrapped name is missing). */
  name: string;
  /** The real arguments: parsed from JSON text where possible, else as given. */
  arguments: unknown;
  /** Whether the model went through `tool_call`. */
  viaBridge: boolean;
  /**
   * For a `tool_call` batch (`calls`): each call, unwrapped the same way, in order,
   * with the id the bridge gives it (`<id>#<index>`). `name` stays `tool_call`.
   */
  calls?: UnwrappedToolCall[];
}

function parseForDisplay(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

// An item of `calls` stands for the single `tool_call` of it, with the id the bridge gives it.
function unwrapItem(item: unknown, id: unknown, index: number): UnwrappedToolCall {
  const single = unwrapToolCall({ name: TOOL_CALL, arguments: item });
  const unwrapped: UnwrappedToolCall = {
    name: single.viaBridge ? single.name : '',
    arguments: single.viaBridge ? single.arguments : parseForDisplay(item),
    viaBridge: true,
  };
  if (typeof id === 'string') unwrapped.id = `${id}#${index}`;
  return unwrapped;
}

/**
 * The one parser for display: gives the real tool name and arguments of any call,
 * looking through `tool_call` (and through each call of a `tool_call` batch, in
 * `calls`). It does not check anything (that is {@link resolveUnderlyingCall}'s job);
 * it only says what the model asked for, so activity feeds, logs and saved
 * trajectories show the real tool.
 *
 * @example
 * ```ts
 * unwrapToolCall({ name: 'tool_call', arguments: '{"name":"slack_post_message","arguments":{"text":"hi"}}' });
 * // → { name: 'slack_post_message', arguments: { text: 'hi' }, viaBridge: true }
 * ```
 *
 * @param call - any call, e.g. `{ name, arguments }`; garbage is tolerated
 * @returns the real name and arguments, and whether the bridge was used
 * @throws nothing
 */
export function unwrapToolCall(call: unknown): UnwrappedToolCall {
  const id = ownValue(call, 'id');
  const name = ownValue(call, 'name');
  const args = parseForDisplay(ownValue(call, 'arguments'));
  const result: UnwrappedToolCall = {
    name: typeof name === 'string' ? name : '',
    arguments: args,
    viaBridge: false,
  };
  if (typeof id === 'string') result.id = id;
  if (name === TOOL_CALL && isRecord(args)) {
    const inner = ownValue(args, 'name');
    const calls = parseForDisplay(ownValue(args, 'calls'));
    if (typeof inner === 'string' && inner.trim() !== '') {
      result.name = inner.trim();
      result.arguments = parseForDisplay(ownValue(args, 'arguments'));
      result.viaBridge = true;
    } else if (Array.isArray(calls)) {
      result.viaBridge = true;
      result.calls = calls.map((item, index) => unwrapItem(item, id, index));
    }
  }
  return result;
}
