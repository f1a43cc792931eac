import { type ToolOrigin, ToolSearchError } from '@tool-search/core';
import { createGlobMatcher } from './glob.js';
import { createToolRuleMatcher, originOfCall } from './tool-identity.js';
import type { Guardrail } from './types.js';

/**
 * Glob patterns over tool names and toolsets (see {@link createGlobMatcher}: `*`, `?`, `\`).
 * A tool pattern matches a tool's exposed name, its upstream name (`origin.name`) and,
 * when the pattern holds a `/`, its `server/name` (see {@link createToolRuleMatcher}).
 * A bare array is shorthand for `{ tools: [...] }`.
 */
export type ToolPatterns =
  | readonly string[]
  | { tools?: readonly string[]; toolsets?: readonly string[] };

/** Options of {@link createToolPolicyGuardrail}. */
export interface ToolPolicyGuardrailOptions {
  /**
   * When given, an allow-list: every tool it does not list is denied, `{}` or `[]`
   * included. Absent: every tool that `deny` does not match is allowed.
   */
  allow?: ToolPatterns;
  /** Tools that are always denied. Deny wins over allow. */
  deny?: ToolPatterns;
  /** @defaultValue `'tool-policy'` */
  name?: string;
}

interface CompiledPatterns {
  tools: (name: string, origin?: ToolOrigin) => boolean;
  toolsets: (name: string) => boolean;
  hasToolsets: boolean;
  text: string;
}

function compile(patterns: ToolPatterns, field: string): CompiledPatterns {
  const { tools = [], toolsets = [] } = Array.isArray(patterns)
    ? { tools: patterns as readonly string[] }
    : (patterns as { tools?: readonly string[]; toolsets?: readonly string[] });
  for (const pattern of [...tools, ...toolsets]) {
    if (typeof pattern !== 'string') {
      throw new ToolSearchError(
        'invalid_argument',
        `createToolPolicyGuardrail: ${field} patterns must be strings, got ${typeof pattern}.`,
      );
    }
  }
  const parts = [
    tools.length > 0 ? `tools ${tools.join(', ')}` : '',
    toolsets.length > 0 ? `toolsets ${toolsets.join(', ')}` : '',
  ].filter(Boolean);
  return {
    tools: createToolRuleMatcher(tools),
    toolsets: createGlobMatcher(toolsets),
    hasToolsets: toolsets.length > 0,
    text: parts.length > 0 ? parts.join('; ') : 'nothing',
  };
}

/**
 * Creates a guardrail that allows or denies calls by tool name and toolset, with glob
 * patterns. Deny wins: a call is denied when its name or toolset matches `deny`. With
 * an `allow` list, a call is denied unless its name or toolset matches `allow`.
 *
 * Names are matched on the tool's identity (`ctx.tool.origin`), not only its exposed
 * name: `delete_*` still denies a `memory_delete_entities` that a name collision
 * renamed from `delete_entities`, and `github/delete_*` denies only the GitHub
 * server's tools. An `allow` pattern without `/` allows a tool of that upstream name
 * from any server; write `server/name` to allow one server's tool only.
 *
 * The toolset comes from `ctx.tool.toolset` (give the dispatcher `resolveTool`, or put
 * the tool in the context). When the tool is unknown and `deny` names toolsets, the
 * call is denied: the guardrail cannot tell that the tool is outside them.
 *
 * @param options.allow - the allow-list
 * @param options.deny - the deny-list
 * @param options.name - the guardrail's name in denials
 * @returns a {@link Guardrail}
 * @throws `ToolSearchError` `invalid_argument` when a pattern is not a string
 *
 * @example
 * ```ts
 * const policy = createToolPolicyGuardrail({
 *   allow: { toolsets: ['mcp-github', 'mcp-filesystem'] },
 *   deny: { tools: ['*_delete_*', 'github_merge_pull_request'] },
 * });
 * const dispatch = createDispatcher({ execute, guardrails: [policy], resolveTool });
 * ```
 */
export function createToolPolicyGuardrail(options: ToolPolicyGuardrailOptions): Guardrail {
  const deny = options.deny ? compile(options.deny, 'deny') : undefined;
  const allow = options.allow ? compile(options.allow, 'allow') : undefined;
  return {
    name: options.name ?? 'tool-policy',
    check(call, ctx) {
      const toolset = ctx.tool?.name === call.name ? ctx.tool.toolset : undefined;
      const known = ctx.tool?.name === call.name;
      const origin = originOfCall(call.name, ctx.tool);
      if (deny) {
        if (deny.tools(call.name, origin)) {
          return { allow: false, reason: `The tool '${call.name}' is denied by policy.` };
        }
        if (toolset !== undefined && deny.toolsets(toolset)) {
          return {
            allow: false,
            reason: `The tool '${call.name}' is denied by policy: its toolset '${toolset}' is denied.`,
          };
        }
        if (!known && deny.hasToolsets) {
          return {
            allow: false,
            reason: `The tool '${call.name}' is denied by policy: its toolset is unknown, and the policy denies toolsets (${deny.text}).`,
          };
        }
      }
      if (
        allow &&
        !allow.tools(call.name, origin) &&
        !(toolset !== undefined && allow.toolsets(toolset))
      ) {
        return {
          allow: false,
          reason: `The tool '${call.name}' is not allowed by policy (allowed: ${allow.text}).`,
        };
      }
      return { allow: true };
    },
  };
}
