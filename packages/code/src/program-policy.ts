import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { declaresReadOnly } from '@tool-search/core/internal';
import { createToolRuleMatcher, type Guardrail } from '@tool-search/hooks';

/** Options of {@link createProgramPolicy}. */
export interface ProgramPolicyOptions {
  /**
   * Tools programs may call whatever their annotations say: globs matched against the
   * exposed name, the upstream name and `server/name`, as every policy matches.
   */
  allow?: readonly string[];
  /** Tools programs may never call, even read-only or allowed ones. */
  deny?: readonly string[];
  /**
   * Let programs call every read-only tool (as `isReadOnly` decides). @defaultValue true
   */
  readOnly?: boolean;
  /**
   * Who says a tool is read-only: what `readOnly` lets programs call, and what the
   * program's `maxWrites` budget does not count. Give your own word here when the tools'
   * annotations come from a party you do not trust (an MCP server): an annotation is that
   * party's claim. @defaultValue the tool's own `readOnlyHint: true`, unless it also says
   * `destructiveHint: true`
   */
  isReadOnly?: (tool: ToolDefinition) => boolean;
  /** Shown in denials. @defaultValue `'program-policy'` */
  name?: string;
}

/** A guardrail that decides which tools programs may call, and can say so ahead of a call. */
export interface ProgramPolicy extends Guardrail {
  /**
   * Whether a program may call this tool: what the guardrail decides for a call with
   * `via: 'program'`. A program tool given the policy shows programs only these tools.
   */
  allows(tool: ToolDefinition): boolean;
  /**
   * Whether a tool counts as read-only: a call of any other tool is a write (the
   * program's `maxWrites`). Absent on a policy of your own: the tool's own annotations decide.
   */
  isReadOnly?(tool: ToolDefinition): boolean;
}

/**
 * A guardrail for the dispatcher that limits what programs (`tool_program`) may call:
 * by default only read-only tools (marked `readOnlyHint: true` and not
 * `destructiveHint: true`, or as `isReadOnly` decides), plus the tools `allow` lists, minus
 * those `deny` lists. Calls that did not come from a program (`ctx.via` other than
 * `'program'`) pass untouched. Put it in the dispatcher's `guardrails`: the dispatcher is
 * the one enforcement point, and its audit records the denial.
 *
 * @example
 * ```ts
 * const dispatch = createDispatcher({
 *   execute,
 *   resolveTool: (name) => byName.get(name),
 *   guardrails: [createProgramPolicy({ allow: ['github/create_issue'] })],
 * });
 * ```
 *
 * @param options.allow - tools programs may call whatever their annotations say
 * @param options.deny - tools programs may never call
 * @param options.readOnly - let programs call read-only tools (default true)
 * @param options.isReadOnly - who says a tool is read-only (default: its own annotations)
 * @param options.name - the guardrail's name
 * @returns the guardrail, with `allows(tool)`
 * @throws `ToolSearchError` `invalid_argument` when a pattern is not a string, or
 * `isReadOnly` is not a function
 */
export function createProgramPolicy(options: ProgramPolicyOptions = {}): ProgramPolicy {
  const patterns = (list: unknown, field: string): string[] => {
    if (list === undefined) return [];
    if (!Array.isArray(list)) {
      throw new ToolSearchError(
        'invalid_argument',
        `createProgramPolicy: ${field} must be an array of tool-name globs.`,
        { data: { field } },
      );
    }
    return list;
  };
  const allowed = createToolRuleMatcher(patterns(options.allow, 'allow'));
  const denied = createToolRuleMatcher(patterns(options.deny, 'deny'));
  if (options.isReadOnly !== undefined && typeof options.isReadOnly !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'createProgramPolicy: isReadOnly must be a function of the tool.',
      { data: { field: 'isReadOnly' } },
    );
  }
  const isReadOnly = options.isReadOnly ?? declaresReadOnly;
  const readOnly = options.readOnly !== false;
  const name = options.name ?? 'program-policy';
  const permits = (toolName: string, tool: ToolDefinition | undefined): boolean => {
    if (denied(toolName, tool?.origin)) return false;
    if (allowed(toolName, tool?.origin)) return true;
    // A call the host cannot tie to a definition is nothing anyone vouched for.
    return readOnly && tool !== undefined && isReadOnly(tool);
  };
  return {
    name,
    allows: (tool) => permits(tool.name, tool),
    isReadOnly: (tool) => isReadOnly(tool),
    check(call, ctx) {
      if (ctx.via !== 'program') return { allow: true };
      if (permits(call.name, ctx.tool)) return { allow: true };
      return {
        allow: false,
        reason: `programs may not call '${call.name}': ${readOnly ? 'it is not read-only by the policy (isReadOnly) and ' : ''}the program policy does not allow it. Call it directly instead.`,
      };
    },
  };
}
