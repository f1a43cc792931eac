import type { ToolDefinition } from '@tool-search/core';
import { createGlobMatcher, createToolRuleMatcher } from '@tool-search/hooks';
import type { GatewayConfig } from './parse.js';

/** One pattern of the config's policies that matches no tool. */
export interface UnmatchedRule {
  /** Where the pattern is in the parsed config, e.g. `guardrails.deny.tools[0]`. */
  path: string;
  /** The pattern as written. */
  pattern: string;
  /** One line for a person, e.g. `guardrails.deny.tools[0] 'github/delete_*' matches no tool`. */
  message: string;
}

type Kind = 'tools' | 'toolsets' | 'servers';

/**
 * Lists every pattern of the config's policies that matches none of `tools`:
 * `guardrails.allow` and `guardrails.deny` (tools and toolsets), `approval.require` and
 * `approval.autoApprove` (tools and toolsets), `pins.tools` and `pins.servers`,
 * `programs.allow` and `programs.deny`. A tool
 * pattern is matched as the policies match it: against the exposed name, the upstream
 * name and `server/name` (see `createToolRuleMatcher`); a toolset pattern against the
 * tools' `toolset`; a pinned server against the servers of the tools. Such a rule is
 * usually a typo or a server that is not up, and it protects nothing: say so at startup.
 *
 * Paths are those of the parsed config, where a bare list (`deny: ['x']`) is its
 * `tools`: `guardrails.deny.tools[0]`.
 *
 * @example
 * ```ts
 * for (const rule of findUnmatchedRules(config, pool.tools())) console.warn(rule.message);
 * // guardrails.deny.tools[0] 'github/delete_*' matches no tool
 * ```
 *
 * @param config - the parsed gateway config
 * @param tools - the pool's current tools (with their `origin`)
 * @returns the unmatched patterns in config order; empty when every pattern matches
 * @throws nothing for a parsed config
 */
export function findUnmatchedRules(
  config: Pick<GatewayConfig, 'guardrails' | 'approval' | 'pins'> &
    Partial<Pick<GatewayConfig, 'programs'>>,
  tools: readonly ToolDefinition[],
): UnmatchedRule[] {
  const toolsets = new Set(tools.flatMap((tool) => (tool.toolset ? [tool.toolset] : [])));
  const servers = new Set(tools.flatMap((tool) => (tool.origin ? [tool.origin.server] : [])));
  const matchesSomething = (kind: Kind, pattern: string): boolean => {
    if (kind === 'tools') {
      const matches = createToolRuleMatcher([pattern]);
      return tools.some((tool) => matches(tool.name, tool.origin));
    }
    if (kind === 'servers') return servers.has(pattern);
    const matches = createGlobMatcher([pattern]);
    return [...toolsets].some((toolset) => matches(toolset));
  };

  const unmatched: UnmatchedRule[] = [];
  const check = (path: string, kind: Kind, patterns: readonly string[] | undefined) => {
    patterns?.forEach((pattern, index) => {
      if (matchesSomething(kind, pattern)) return;
      const at = `${path}.${kind}[${index}]`;
      unmatched.push({ path: at, pattern, message: `${at} '${pattern}' matches no tool` });
    });
  };
  const { guardrails, approval, pins } = config;
  for (const [path, rule] of [
    ['guardrails.allow', guardrails.allow],
    ['guardrails.deny', guardrails.deny],
    ['approval.require', approval.require],
    ['approval.autoApprove', approval.autoApprove],
  ] as const) {
    check(path, 'tools', rule?.tools);
    check(path, 'toolsets', rule?.toolsets);
  }
  check('pins', 'tools', pins.tools);
  check('pins', 'servers', pins.servers);
  // The program policy's lists are bare lists of tool patterns: `programs.allow[0]`.
  for (const field of ['allow', 'deny'] as const) {
    config.programs?.[field].forEach((pattern, index) => {
      if (matchesSomething('tools', pattern)) return;
      const at = `programs.${field}[${index}]`;
      unmatched.push({ path: at, pattern, message: `${at} '${pattern}' matches no tool` });
    });
  }
  return unmatched;
}
