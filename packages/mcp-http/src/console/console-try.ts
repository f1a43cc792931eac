import { readJsonBody, sendError, sendJson } from './console-http.js';
import type { ConsoleRequest } from './console-request.js';

/** How long a tried call may take, approval included, before the console gives up on it. */
const TRY_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * **Try** on the Tools page: the operator's call of one tool, run in a session of the
 * operator's own (its profile's scope) through the session's pipeline, as a model's call
 * is: guardrails, hooks, the approval and the audit, with `via: 'console'` and the
 * operator named in the audit record. Answers `{ result }`, the MCP result.
 */
export async function tryTool({ req, res, state, operator }: ConsoleRequest): Promise<void> {
  const body = await readJsonBody(req);
  const name = body?.['tool'];
  const args = body?.['arguments'] ?? {};
  if (
    typeof name !== 'string' ||
    typeof args !== 'object' ||
    args === null ||
    Array.isArray(args)
  ) {
    sendError(res, 400, 'Send { tool: "<name>", arguments: { ... } }.');
    return;
  }
  const open = state.options.openSession;
  if (open === undefined) {
    sendError(res, 501, 'This console cannot try tools: its gateway gave it no sessions.');
    return;
  }
  const session = open(operator);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TRY_TIMEOUT_MS);
  // The operator closing the page cancels a call still waiting (for approval, say).
  res.on('close', () => abort.abort());
  try {
    const result = await session.callAsOperator(
      { name, arguments: args as Record<string, unknown> },
      { operator, signal: abort.signal },
    );
    sendJson(res, 200, { result });
  } finally {
    clearTimeout(timer);
    await session.close();
  }
}
