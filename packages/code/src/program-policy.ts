import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
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
   * Let programs call every tool marked `readOnlyHint: true`. @defaultValue true
   */
  readOnly?: boolean;
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
}

/**
 * A guardrail for the dispatcher that limits what programs (`tool_program`) may call:
 * by default only tools marked `readOnlyHint: true`, plus the tools `allow` lists, minus
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
 * @param options.name - the guardrail's name
 * @returns the guardrail, with `allows(tool)`
 * @throws `ToolSearchError` `invalid_argument` when a pattern is not a string
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
  const readOnly = options.readOnly !== false;
  const name = options.name ?? 'program-policy';
  const permits = (toolName: string, tool: ToolDefinition | undefined): boolean => {
    if (denied(toolName, tool?.origin)) return false;
    if (allowed(toolName, tool?.origin)) return true;
    return readOnly && tool?.annotations?.readOnlyHint === true;
  };
  return {
    name,
    allows: (tool) => permits(tool.name, tool),
    check(call, ctx) {
      if (ctx.via !== 'program') return { allow: true };
      if (permits(call.name, ctx.tool)) return { allow: true };
      return {
        allow: false,
        reason: `programs may not call '${call.name}': ${readOnly ? 'it is not marked read-only (readOnlyHint) and ' : ''}the program policy does not allow it. Call it directly instead.`,
      };
    },
  };
}
