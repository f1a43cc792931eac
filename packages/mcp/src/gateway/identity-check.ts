import type { ToolDefinition } from '@tool-search/core';

/**
 * Whether an exposed name still names the tool that the policies decided on. Between
 * the decision and the call (a person may take minutes to approve), a server can
 * publish a tool that renames others, and the name may then belong to another server's
 * tool: that one must not run on the first one's approval.
 *
 * @param name - the exposed name about to be called
 * @param decided - the definition the guardrails and the approval saw (`ctx.tool`)
 * @param current - the definition the name has now, in the session's tools
 * @returns a message for the model when the name changed hands; `undefined` when it
 * still names the same tool, or when there is no origin to compare
 * @throws nothing
 */
export function changedHands(
  name: string,
  decided: ToolDefinition | undefined,
  current: ToolDefinition | undefined,
): string | undefined {
  const origin = decided?.name === name ? decided.origin : undefined;
  const live = current?.origin;
  if (origin === undefined || live === undefined) return undefined;
  if (live.server === origin.server && live.name === origin.name) return undefined;
  return (
    `'${name}' was decided on as ${origin.server}/${origin.name}, but while the call waited ` +
    `it was renamed and now names another tool (${live.server}/${live.name}), so it ` +
    'was not called. List the tools again and call the one you mean by its current name.'
  );
}
