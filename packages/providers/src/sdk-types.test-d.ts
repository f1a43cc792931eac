import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnthropicRequestTool,
  AnthropicToolSearchResult,
  answerAnthropicToolSearch,
  checkAnthropicRequest,
  prepareAnthropicTools,
} from './anthropic.js';
import type {
  answerOpenAIToolSearch,
  OpenAIRequestTool,
  OpenAIToolSearchOutput,
  prepareOpenAIResponsesTools,
  toStrictOpenAITool,
} from './openai.js';

// Type tests: `pnpm typecheck` (tsc over tsconfig.test.json) compiles them against the
// SDKs' own types, and `vitest --typecheck` runs them. When an SDK release changes a shape
// we send or accept, an assertion here stops compiling and CI fails. Nothing here runs.

type AnthropicPrepared = Awaited<ReturnType<typeof prepareAnthropicTools>>;
type OpenAIPrepared = Awaited<ReturnType<typeof prepareOpenAIResponsesTools>>;

describe('the Anthropic types against the SDK types', () => {
  it('sends request tools that are ToolUnion, in a MessageCreateParams', () => {
    expectTypeOf<AnthropicPrepared['tools']>().toExtend<Anthropic.ToolUnion[]>();
    expectTypeOf<AnthropicRequestTool>().toExtend<Anthropic.ToolUnion>();
    expectTypeOf<AnthropicPrepared['tools']>().toExtend<
      NonNullable<Anthropic.MessageCreateParamsNonStreaming['tools']>
    >();
  });

  it('answers a search with a ToolResultBlockParam that fits in a message', () => {
    expectTypeOf<
      Awaited<ReturnType<typeof answerAnthropicToolSearch>>
    >().toExtend<Anthropic.ToolResultBlockParam>();
    expectTypeOf<AnthropicToolSearchResult>().toExtend<Anthropic.ContentBlockParam>();
  });

  it('accepts a real tool_use block and real request params', () => {
    expectTypeOf<Anthropic.ToolUseBlock>().toExtend<
      Parameters<typeof answerAnthropicToolSearch>[1]
    >();
    expectTypeOf<Anthropic.MessageCreateParamsNonStreaming>().toExtend<
      Parameters<typeof checkAnthropicRequest>[0]
    >();
  });
});

describe('the OpenAI types against the SDK types', () => {
  it('sends request tools that are Responses.Tool, in a ResponseCreateParams', () => {
    expectTypeOf<OpenAIPrepared['tools']>().toExtend<OpenAI.Responses.Tool[]>();
    expectTypeOf<OpenAIRequestTool>().toExtend<OpenAI.Responses.Tool>();
    expectTypeOf<OpenAIPrepared['tools']>().toExtend<
      NonNullable<OpenAI.Responses.ResponseCreateParamsNonStreaming['tools']>
    >();
  });

  it('accepts a real tool_search_call and answers with a ResponseInputItem', () => {
    expectTypeOf<OpenAI.Responses.ResponseToolSearchCall>().toExtend<
      Parameters<typeof answerOpenAIToolSearch>[1]
    >();
    expectTypeOf<
      Awaited<ReturnType<typeof answerOpenAIToolSearch>>
    >().toExtend<OpenAI.Responses.ResponseInputItem>();
    expectTypeOf<OpenAIToolSearchOutput>().toExtend<OpenAI.Responses.ResponseToolSearchOutputItemParam>();
  });

  it('turns a tool into a Chat Completions tool', () => {
    expectTypeOf<
      ReturnType<typeof toStrictOpenAITool>
    >().toExtend<OpenAI.Chat.Completions.ChatCompletionTool>();
  });
});
