import { TOOL_CALL, unwrapToolCall } from '@tool-search/bridge';
import { isRecord } from '@tool-search/core/internal';

// The part types that carry a call's name beside its input, in the UI message stream
// (`toUIMessageStream()`) and in `streamText`'s fullStream. The input deltas and the
// output chunks carry neither; the UI matches them to their part by toolCallId.
const NAMED_PARTS = new Set([
  'tool-input-available',
  'tool-input-error',
  'tool-call',
  'tool-result',
  'tool-error',
]);

// The real tool behind one `{ toolName, input }`, or undefined when there is nothing to
// rename: another tool, a batch (`calls`), or an input with no usable name.
function realCall(toolName: unknown, input: unknown): { name: string; input: unknown } | undefined {
  if (toolName !== TOOL_CALL) return undefined;
  const inner = unwrapToolCall({ name: TOOL_CALL, arguments: input });
  if (!inner.viaBridge || inner.calls !== undefined || inner.name === TOOL_CALL) return undefined;
  return { name: inner.name, input: inner.arguments };
}

/**
 * A stream part as an activity view shows it: a part of a `tool_call` call names the
 * real tool, with its real input, and keeps its `toolCallId` (and every other field).
 * Works on the chunks of the UI message stream (`tool-input-available`,
 * `tool-input-error`) and on the parts of `streamText`'s fullStream (`tool-call`,
 * `tool-result`, `tool-error`, and the call inside `tool-approval-request`). Any other
 * part, a call of another tool, a batch (`tool_call` with `calls`, which shows as the
 * batch) and a malformed input come back as they are (the same object).
 *
 * For display only: the AI SDK's step results and response messages, the history the
 * model sees, are not touched by this.
 *
 * @example
 * ```ts
 * for await (const part of result.fullStream) render(realToolPart(part));
 * ```
 *
 * @param part - any stream part or UI message chunk; garbage is tolerated
 * @returns a renamed copy for a single `tool_call` call, else `part` itself
 * @throws nothing
 */
export function realToolPart<PART>(part: PART): PART {
  if (!isRecord(part) || typeof part['type'] !== 'string') return part;
  if (part['type'] === 'tool-approval-request' && isRecord(part['toolCall'])) {
    const renamed: Record<string, unknown> = realToolPart({
      ...part['toolCall'],
      type: 'tool-call',
    });
    if (renamed.toolName === part['toolCall']['toolName']) return part;
    const { type: _type, ...toolCall } = renamed;
    return { ...part, toolCall: { ...part['toolCall'], ...toolCall } } as PART;
  }
  if (!NAMED_PARTS.has(part['type'])) return part;
  const real = realCall(part['toolName'], part['input']);
  if (real === undefined) return part;
  return { ...part, toolName: real.name, input: real.input } as PART;
}

/**
 * A TransformStream that shows the real tool behind every `tool_call` call in a
 * stream a UI reads: the UI message stream
 * (`result.toUIMessageStream().pipeThrough(createRealToolTransform())`, so a `useChat`
 * activity view shows the real tool) or `streamText`'s fullStream. Each part goes
 * through {@link realToolPart}; a `tool-output-denied` part of the fullStream, which
 * names the tool but carries no input, takes the real name its call showed.
 *
 * A call's `tool-input-start` and `tool-input-delta` chunks pass through under
 * `tool_call`: the real name is inside the streamed input and is known only when the
 * input is complete, and holding the deltas back would hide a long input (a file's
 * content) until then. From `tool-input-available` on, the chunks name the real tool
 * and its input; the AI SDK's UI (ai 6 and 7) updates its part by `toolCallId`, so the
 * `dynamic-tool` part that streamed as `tool_call` ends up named the real tool.
 *
 * For display only: it does not change the step results or response messages, and
 * never throws (a malformed part passes through as it is).
 *
 * @example
 * ```ts
 * const ui = result.toUIMessageStream().pipeThrough(createRealToolTransform());
 * return createUIMessageStreamResponse({ stream: ui });
 * ```
 *
 * @returns a TransformStream from parts to the same parts, renamed for display
 * @throws nothing
 */
export function createRealToolTransform<PART>(): TransformStream<PART, PART> {
  // Bounded by the calls of one stream: the fullStream's denial names its call by id.
  const names = new Map<string, string>();
  return new TransformStream<PART, PART>({
    transform(part, controller) {
      const shown = realToolPart(part);
      if (isRecord(part) && isRecord(shown)) {
        const id = part['toolCallId'];
        if (
          part['type'] === 'tool-call' &&
          typeof id === 'string' &&
          shown['toolName'] !== part['toolName']
        ) {
          names.set(id, String(shown['toolName']));
        }
        if (part['type'] === 'tool-output-denied' && typeof id === 'string') {
          const name = part['toolName'] === TOOL_CALL ? names.get(id) : undefined;
          if (name !== undefined) {
            controller.enqueue({ ...part, toolName: name } as PART);
            return;
          }
        }
      }
      controller.enqueue(shown);
    },
  });
}
