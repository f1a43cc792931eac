import type { ToolDefinition, ToolNameMap, ToolNameRules } from '@tool-search/core';
import { preparedNames } from './prepared-base.js';

/**
 * Gemini's rule for function names: letters, digits, `_`, `.`, `:` and `-`, at most 128
 * (a name must also start with a letter or `_`, which the preparations see to).
 */
export const GEMINI_TOOL_NAME_RULES: Readonly<ToolNameRules> = Object.freeze({
  allowed: /[a-zA-Z0-9_.:-]/,
  maxLength: 128,
});

const FIRST = /^[a-zA-Z_]/;

/**
 * The name map of a Gemini preparation: {@link GEMINI_TOOL_NAME_RULES}, and a provider name
 * that would start with a digit, `.`, `:` or `-` gets a leading `_` (cut to 128, and kept
 * apart from every other name).
 *
 * @param tools - the session's tools
 * @returns the map, the bridge tools' names included
 * @throws nothing
 */
export function geminiNames(tools: readonly ToolDefinition[]): ToolNameMap {
  const base = preparedNames(tools, GEMINI_TOOL_NAME_RULES);
  const toProvider = new Map<string, string>();
  const fromProvider = new Map<string, string>();
  const names = [...new Set(tools.map((tool) => tool.name))];
  const taken = new Set(names.map((name) => base.toProvider(name)));
  for (const name of names) {
    let sent = base.toProvider(name);
    if (!FIRST.test(sent)) {
      let candidate = `_${sent}`.slice(0, GEMINI_TOOL_NAME_RULES.maxLength);
      while (taken.has(candidate))
        candidate = `_${candidate}`.slice(0, GEMINI_TOOL_NAME_RULES.maxLength);
      taken.add(candidate);
      sent = candidate;
    }
    toProvider.set(name, sent);
    fromProvider.set(sent, name);
  }
  return {
    toProvider: (name) => toProvider.get(name) ?? base.toProvider(name),
    fromProvider: (sent) => fromProvider.get(sent) ?? base.fromProvider(sent),
  };
}
