import { ToolSearchError } from '@tool-search/core';

/** What {@link checkAnthropicRequest} reads: the request's tools and, if given, its messages. */
export interface AnthropicRequestShape {
  tools?: readonly {
    name?: string;
    defer_loading?: boolean | null;
    type?: string | null;
    cache_control?: unknown;
    allowed_callers?: readonly string[] | null;
    strict?: boolean | null;
  }[];
  messages?: readonly { role: string; content: unknown }[];
}

const CODE_EXECUTION = /^code_execution_\d{8}$/;

// Programmatic calling: a tool a program may call needs that code execution tool in the
// same request, and the platform does not take `strict: true` on it.
function checkCallers(tools: NonNullable<AnthropicRequestShape['tools']>): void {
  const codeExecution = new Set(
    tools.flatMap((tool) =>
      typeof tool.type === 'string' && CODE_EXECUTION.test(tool.type) ? [tool.type] : [],
    ),
  );
  for (const tool of tools) {
    const programs = (tool.allowed_callers ?? []).filter((caller) => caller !== 'direct');
    if (programs.length === 0) continue;
    const missing = programs.find((caller) => !codeExecution.has(caller));
    if (missing !== undefined) {
      throw new ToolSearchError(
        'invalid_argument',
        `Tool '${String(tool.name)}' lists '${missing}' in allowed_callers, but the request has no ${missing} tool. Prepare with the programmatic option, which sends it.`,
        { data: { tool: String(tool.name) } },
      );
    }
    if (tool.strict === true) {
      throw new ToolSearchError(
        'invalid_argument',
        `Tool '${String(tool.name)}' is callable from code execution and carries strict: true, which programmatic tool calling does not support. Drop strict on it.`,
        { data: { tool: String(tool.name) } },
      );
    }
  }
}

function referencesIn(messages: AnthropicRequestShape['messages']): string[] {
  const names: string[] = [];
  for (const message of messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as unknown[]) {
      if (typeof block !== 'object' || block === null) continue;
      const record = block as Record<string, unknown>;
      const inner =
        record['type'] === 'tool_result'
          ? record['content']
          : record['type'] === 'tool_search_tool_result'
            ? (record['content'] as Record<string, unknown> | undefined)?.['tool_references']
            : undefined;
      if (!Array.isArray(inner)) continue;
      for (const item of inner as Record<string, unknown>[]) {
        if (item?.['type'] === 'tool_reference') names.push(String(item['tool_name']));
      }
    }
  }
  return names;
}

/**
 * Checks an Anthropic request before it is sent, as the API does: tool names are
 * unique, at least one tool is not deferred, no deferred tool carries `cache_control`,
 * a tool whose `allowed_callers` names a code execution tool has it in the request and
 * no `strict: true`, and every `tool_reference` in the messages
 * names a deferred tool of this same request. `prepareAnthropicTools` checks its
 * tools; check again with the messages when you resend a conversation with tools
 * prepared anew (a tool found earlier may have left the session).
 *
 * @param request - the request's `tools`, and its `messages` to check the references
 * @returns nothing
 * @throws `ToolSearchError` `duplicate_tool_name` when two tools share a name; `invalid_argument` when every tool is deferred, a deferred tool carries `cache_control`, a program-callable tool lacks its code execution tool or carries `strict: true`, or a reference names a tool that is not a deferred tool of the request (`data.tool` names it)
 */
export function checkAnthropicRequest(request: AnthropicRequestShape): void {
  const deferred = new Set<string>();
  const seen = new Set<string>();
  let loaded = 0;
  const tools = request.tools ?? [];
  for (const tool of tools) {
    if (tool.name === undefined) {
      // A tool without a name (an Anthropic toolset) is loaded, never deferred by us.
      if (tool.defer_loading !== true) loaded += 1;
      continue;
    }
    if (seen.has(tool.name)) {
      throw new ToolSearchError(
        'duplicate_tool_name',
        `Tool '${tool.name}' appears more than once in the request. Give each tool a unique name.`,
        { data: { tool: tool.name } },
      );
    }
    seen.add(tool.name);
    if (tool.defer_loading === true && tool.cache_control != null) {
      throw new ToolSearchError(
        'invalid_argument',
        `Tool '${tool.name}' is deferred and carries cache_control, which the API rejects. Put the cache breakpoint on the last tool that is not deferred (the cacheControl option of prepareAnthropicTools does).`,
        { data: { tool: tool.name } },
      );
    }
    if (tool.defer_loading === true) deferred.add(tool.name);
    else loaded += 1;
  }
  checkCallers(tools);
  if (tools.length > 0 && loaded === 0) {
    throw new ToolSearchError(
      'invalid_argument',
      'Every tool of the request is deferred; the API needs at least one that is not (a search tool or a core tool).',
    );
  }
  for (const name of referencesIn(request.messages)) {
    if (!deferred.has(name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `A tool_reference names '${name}', which is not a deferred tool of this request. Prepare the tools again with it, or drop the reference.`,
        { data: { tool: name } },
      );
    }
  }
}
