import { defineErrorCodes } from '@tool-search/core';

/**
 * The error codes `@tool-search/ai-sdk` adds to core's (`TOOL_SEARCH_ERROR_CODES`),
 * registered with core's `ToolSearchErrorCodeRegistry`. Details ride in `data`; every
 * code, with its text and what to do, is listed in `docs/guides/errors.md`.
 *
 * - `tool_search_inactive`: the model called `tool_search`, `tool_describe` or
 *   `tool_call` while tool search is inactive for the conversation (the bridge tools are
 *   then not among the step's tools). The AI SDK hands the error to the model as the
 *   call's tool error (`AI_ToolCallRepairError`, the cause being this one); the message
 *   names the reason and tells the model to call the tools directly. `data.tool` is the
 *   bridge tool called; the whole decision is the setup's `decision`.
 */
export const AI_SDK_ERROR_CODES = ['tool_search_inactive'] as const;

/** One of {@link AI_SDK_ERROR_CODES}. */
export type AiSdkErrorCode = (typeof AI_SDK_ERROR_CODES)[number];

declare module '@tool-search/core' {
  /** `@tool-search/ai-sdk` registers {@link AI_SDK_ERROR_CODES}. */
  interface ToolSearchErrorCodeRegistry extends Record<AiSdkErrorCode, true> {}
}

/**
 * Whether a value is one of {@link AI_SDK_ERROR_CODES}.
 *
 * @param value - any value
 * @returns true when `value` is an ai-sdk code
 * @throws nothing
 */
export const isAiSdkErrorCode: (value: unknown) => value is AiSdkErrorCode =
  defineErrorCodes(AI_SDK_ERROR_CODES).is;
