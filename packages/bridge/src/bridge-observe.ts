import {
  OTEL_ATTRIBUTES as A,
  activeInstruments,
  activeTracer,
  EXECUTE_TOOL,
  markSpanError,
  runInSpan,
} from '@tool-search/core/internal';

/** Whether an OpenTelemetry SDK is registered (tracer or meter): a cheap check. */
export function bridgeObserved(): boolean {
  return activeTracer() !== undefined || activeInstruments() !== undefined;
}

type Read = 'search' | 'describe';

// `hits`, `empty` or `error` for a search; `ok` or `error` for a describe. A group of
// searches (`queries`) or of describes (`names`) counts its parts.
function outcomeOf(kind: Read, answer: unknown): { outcome: string; count: number } {
  const record = answer as { error?: unknown; matches?: unknown; results?: unknown } | null;
  if (record === null || typeof record !== 'object') return { outcome: 'error', count: 0 };
  if (record.error !== undefined) return { outcome: 'error', count: 0 };
  if (kind === 'describe') return { outcome: 'ok', count: 1 };
  if (Array.isArray(record.results)) {
    const hits = record.results.reduce(
      (sum: number, part) => sum + (Array.isArray(part?.matches) ? part.matches.length : 0),
      0,
    );
    return { outcome: hits > 0 ? 'hits' : 'empty', count: hits };
  }
  const hits = Array.isArray(record.matches) ? record.matches.length : 0;
  return { outcome: hits > 0 ? 'hits' : 'empty', count: hits };
}

/**
 * Answers a `tool_search` or `tool_describe` in an `execute_tool` span and counts it in
 * `tool_search.searches` / `tool_search.describes` by outcome. The query is not recorded
 * (a model's text); the number of hits is.
 */
export async function observeRead<T>(kind: Read, answer: () => Promise<T>): Promise<T> {
  const tool = kind === 'search' ? 'tool_search' : 'tool_describe';
  const tracer = activeTracer();
  const settled =
    tracer === undefined
      ? await answer()
      : await runInSpan(
          tracer,
          {
            name: `${EXECUTE_TOOL} ${tool}`,
            attributes: { [A.operationName]: EXECUTE_TOOL, [A.toolName]: tool },
          },
          async (span) => {
            const value = await answer();
            const { outcome, count } = outcomeOf(kind, value);
            span.setAttribute(A.outcome, outcome);
            if (kind === 'search') span.setAttribute(A.searchHits, count);
            if (outcome === 'error') markSpanError(span, 'bridge_error');
            return value;
          },
        );
  const instruments = activeInstruments();
  if (instruments !== undefined) {
    const { outcome } = outcomeOf(kind, settled);
    (kind === 'search' ? instruments.searches : instruments.describes).add(1, {
      [A.outcome]: outcome,
    });
  }
  return settled;
}

/** Counts the tokens an activated assembly saved in `tool_search.tokens.saved`. */
export function countTokensSaved(tokens: number): void {
  if (tokens > 0) activeInstruments()?.tokensSaved.add(tokens);
}
