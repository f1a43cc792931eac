/**
 * Tool search for the Vercel AI SDK (`ai` 6 and 7): hundreds of tools without sending
 * every schema on every step.
 *
 * The entry points:
 * - {@link toolDefinitionsFromToolSet} and {@link toolSetFromDefinitions}: an AI SDK
 *   `ToolSet` to tool search's definitions and back, with toolsets and pins.
 * - AI SDK 7: {@link markDeferredTools} marks the deferrable tools `deferLoading` by our
 *   activation decision (or sets the `@ai-sdk/anthropic` / `@ai-sdk/openai` provider
 *   option for the platform's own search), and {@link createToolSearchFunction} is the
 *   `search` of `toolSearch({ search })`, backed by our catalog and the session's scope.
 * - AI SDK 6, and models without deferred loading: {@link withToolSearch}, the bridge
 *   (`tool_search`, `tool_describe`, `tool_call`) assembled per step, every call
 *   dispatched on the real tool name through `@tool-search/hooks`.
 * - `withToolSearch(tools, { program })`: `tool_program` (`@tool-search/code`), a program
 *   over the tools in a QuickJS sandbox whose every call meets the same dispatcher and
 *   approval policy as a direct call; on AI SDK 7 also a local tool caller.
 * - {@link decideToolSetActivation}: the activation decision on its own, for tool
 *   definitions or a `ToolSet`; a setup carries its own as `await search.decision`.
 * - `@tool-search/ai-sdk/testing`: `createScriptedModel`, a model that plays scripted
 *   turns, for your tests of a loop with tool search.
 * - {@link realToolCalls}, {@link realToolPart} and {@link createRealToolTransform}: the
 *   real tool behind a `tool_call` call in step results, stream parts and the UI message
 *   stream, for an activity view.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { withToolSearch } from '@tool-search/ai-sdk';
 *
 * const search = withToolSearch(tools, { core: ['read_file'], contextWindow: 128_000 });
 * const { text } = await generateText({
 *   model,
 *   ...search, // tools, prepareStep, the repair (ai 6 and 7)
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Post the release notes to #general',
 * });
 * ```
 *
 * @packageDocumentation
 */
export type { ActivationOptions, ToolSetActivation } from './activation.js';
export { decideToolSetActivation } from './activation.js';
export type {
  AiSdkCallContext,
  AiSdkDispatchOptions,
  AiSdkExecutionOptions,
} from './call-dispatch.js';
export type { AiSdkErrorCode } from './errors.js';
export { AI_SDK_ERROR_CODES, isAiSdkErrorCode } from './errors.js';
export type { FixedToolList } from './fixed-tool-list.js';
export type {
  DeferLoadingTarget,
  MarkDeferredToolsOptions,
  MarkedToolSet,
} from './mark-deferred.js';
export { markDeferredTools } from './mark-deferred.js';
export type { AiSdkProgramOptions } from './program-caller.js';
export type { RealToolCall } from './real-tool-calls.js';
export { realToolCalls } from './real-tool-calls.js';
export { createRealToolTransform, realToolPart } from './real-tool-stream.js';
export { compactSearchAnswer, shortDescription } from './search-answer.js';
export type { ToolSearchFunction, ToolSearchFunctionOptions } from './search-function.js';
export { createToolSearchFunction } from './search-function.js';
export type { AiSdkLogger, StepOptions, StepSettings, UserPrepareStep } from './step-merge.js';
export type {
  ApprovalStatus,
  ApprovalToolCall,
  BridgeToolApprovalOptions,
  ToolApprovalConfig,
  ToolApprovalRequest,
} from './tool-approval.js';
export { createBridgeToolApproval } from './tool-approval.js';
export type {
  ToolSearchMetadata,
  ToolSetExecute,
  ToolSetLabels,
} from './tool-set-definitions.js';
export { toolDefinitionsFromToolSet, toolSetFromDefinitions } from './tool-set-definitions.js';
export type {
  RepairableToolCall,
  RepairToolCall,
  ToolSearchSetup,
  WithToolSearchOptions,
} from './with-tool-search.js';
export { withToolSearch } from './with-tool-search.js';
