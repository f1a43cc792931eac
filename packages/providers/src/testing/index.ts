/**
 * Local stand-ins of the Anthropic Messages, OpenAI Responses and Gemini APIs, for tests and
 * examples that run the real SDK clients without an API key. Each checks every request
 * against the rules the API enforces for deferred tools and for programmatic tool calling
 * (`allowed_callers`, the code execution container, `program` items and their
 * fingerprints) and plays a scripted model.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { startAnthropicStandIn } from '@tool-search/providers/testing';
 *
 * const standIn = await startAnthropicStandIn({ steps: [{ search: 'open issues' }, { reply: 'Done.' }] });
 * const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test' });
 * // ... run your loop, then:
 * expect(standIn.violations).toEqual([]);
 * await standIn.close();
 * ```
 *
 * @packageDocumentation
 */
export type { AnthropicStandInOptions } from './anthropic-stand-in.js';
export { startAnthropicStandIn } from './anthropic-stand-in.js';
export type { GeminiScriptedStep, GeminiStandInOptions } from './gemini-stand-in.js';
export { startGeminiStandIn } from './gemini-stand-in.js';
export { startOpenAIStandIn } from './openai-stand-in.js';
export type { ProgramStep, ScriptedStep, StandIn, StandInOptions } from './stand-in-server.js';
