/**
 * Test helpers for apps on `@tool-search/langchain`: {@link createScriptedChatModel}, a
 * chat model that plays scripted tool calls, so that an agent with tool search runs in a
 * unit test without an API key.
 *
 * @packageDocumentation
 */
export type {
  ScriptedAnswer,
  ScriptedBindings,
  ScriptedChatModel,
  ScriptedToolCall,
  ScriptedTurn,
} from './scripted-chat-model.js';
export { createScriptedChatModel } from './scripted-chat-model.js';
