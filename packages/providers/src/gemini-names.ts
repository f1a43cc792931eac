import type { ToolNameRules } from '@tool-search/core';

/**
 * Gemini's rule for function names: letters, digits, `_`, `.`, `:` and `-`, at most 128
 * (a name must also start with a letter or `_`).
 */
export const GEMINI_TOOL_NAME_RULES: Readonly<ToolNameRules> = Object.freeze({
  allowed: /[a-zA-Z0-9_.:-]/,
  maxLength: 128,
});
