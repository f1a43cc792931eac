/**
 * Tool search on the platforms' own deferred loading, driven by our catalog and policy.
 * The provider functions live in subpaths, so that an app loads only what it uses:
 * - `@tool-search/providers/anthropic`: `prepareAnthropicTools`,
 *   `answerAnthropicToolSearch`, `toolCallFromAnthropic`, `toAnthropicToolResult`,
 *   `checkAnthropicRequest` (Messages API); with the `programmatic` option,
 *   `dispatchAnthropicToolUse`, `routeAnthropicToolUse` and `createAnthropicProgramState`.
 * - `@tool-search/providers/openai`: `prepareOpenAIResponsesTools`,
 *   `answerOpenAIToolSearch`, `toolCallFromOpenAI`, `toOpenAIFunctionOutput`,
 *   `toStrictOpenAITool` (Responses and Chat Completions); with the `programmatic`
 *   option, `dispatchOpenAIFunctionCall`, `routeOpenAIFunctionCall` and
 *   `createOpenAIProgramState`.
 * - `@tool-search/providers/gemini`: `prepareGeminiTools` and `dispatchGeminiFunctionCall`
 *   (the bridge for `generateContent`, which has no deferral), `prepareGeminiInteractionTools`
 *   and `answerGeminiToolSearch` (tool retrieval in the Interactions API), `toGeminiSchema`.
 * - `@tool-search/providers/testing`: local stand-ins of the three APIs that check every
 *   request and play a scripted model, for tests and examples without an API key.
 *
 * This entry holds what they share: the modes and the capability table of `auto`
 * ({@link resolveProviderMode}, {@link DEFAULT_MODEL_CAPABILITIES}), the
 * {@link PreparedTools} they return, and the strict-mode schema helpers.
 *
 * The provider SDKs are not dependencies: the types here are structurally theirs, and a
 * type test assigns them to `@anthropic-ai/sdk`, `openai` and `@google/genai` types in CI.
 *
 * @packageDocumentation
 */
export type {
  ModeChoice,
  ModelCapability,
  PreparedMode,
  Provider,
  ProviderMode,
} from './capabilities.js';
export {
  canonicalModelId,
  chooseProviderMode,
  DEFAULT_MODEL_CAPABILITIES,
  resolveProviderMode,
} from './capabilities.js';
export type { PreparedTools, PrepareOptions } from './plan.js';
export { DEFAULT_SEARCH_TOOL_NAME } from './plan.js';
export type {
  PreparedProgrammatic,
  ProgramCallerPolicy,
  ProgramDispatchOptions,
  ProgrammaticOptions,
  ProgramRefusalSink,
  ProviderCallContext,
  ProviderDispatch,
  ProviderDispatchContext,
  RoutedToolCall,
} from './programmatic.js';
export type {
  BridgeAssembler,
  BridgeAssemblerInput,
  BridgeAssemblyShape,
  PrepareModeOptions,
  ProviderLogger,
} from './settle-mode.js';
export { restoreStrictArguments, toStrictJsonSchema } from './strict-schema.js';
export type { RenderedToolOutcome } from './tool-outcome.js';
export { renderToolOutcome } from './tool-outcome.js';
