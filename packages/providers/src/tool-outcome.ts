import { isRecord } from '@tool-search/core/internal';

/** A tool result as the model should read it: the content alone, and whether it failed. */
export interface RenderedToolOutcome {
  /** The content: the tool's result (a string as it is, anything else as JSON), or the refusal. */
  text: string;
  /** True for a denied, failed or cancelled call, and for a bridge refusal. */
  isError: boolean;
}

const STATUSES = new Set(['ok', 'denied', 'error', 'cancelled']);

// A dispatcher outcome (`DispatchResult` of @tool-search/hooks) carries its call; a tool's
// own result that happens to have a `status` does not.
function isDispatchOutcome(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && STATUSES.has(String(value['status'])) && isRecord(value['call']);
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value ?? null) ?? 'null');
}

function errorMessage(error: unknown): string {
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : json(error);
}

function renderDispatch(outcome: Record<string, unknown>): RenderedToolOutcome {
  switch (outcome['status']) {
    case 'ok':
      return { text: json(outcome['result']), isError: false };
    case 'denied':
      return { text: `Denied: ${String(outcome['reason'])}`, isError: true };
    case 'cancelled':
      return { text: `Cancelled: ${String(outcome['reason'])}`, isError: true };
    default:
      return { text: `Error: ${errorMessage(outcome['error'])}`, isError: true };
  }
}

// One entry of a bridge batch, without the echoed call.
function batchEntry(entry: unknown): unknown {
  if (!isDispatchOutcome(entry)) return entry;
  const rendered = renderDispatch(entry);
  return rendered.isError
    ? { status: entry['status'], error: rendered.text }
    : { status: 'ok', result: entry['result'] };
}

/**
 * Turns what a tool call came to into the content a model reads, the same for every
 * provider and mode: a dispatcher outcome (`DispatchResult` of `@tool-search/hooks`:
 * the result alone, or `Denied: …` / `Error: …` / `Cancelled: …`, never the echoed call),
 * a bridge answer of `handleBridgeCall` (a search or describe answer as JSON; a refusal
 * `{ error, code, … }` as JSON and an error; a batch `{ results }` with each call's
 * outcome in the same form), or any other value (a string as it is, else JSON).
 *
 * @param outcome - what the dispatcher or the bridge answered
 * @returns the text and whether it is an error
 * @throws nothing
 */
export function renderToolOutcome(outcome: unknown): RenderedToolOutcome {
  if (isDispatchOutcome(outcome)) return renderDispatch(outcome);
  if (isRecord(outcome) && Array.isArray(outcome['results'])) {
    return {
      text: json({ ...outcome, results: outcome['results'].map(batchEntry) }),
      isError: false,
    };
  }
  if (isRecord(outcome) && typeof outcome['error'] === 'string' && 'code' in outcome) {
    return { text: json(outcome), isError: true };
  }
  return { text: json(outcome), isError: false };
}
