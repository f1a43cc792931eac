import type Anthropic from '@anthropic-ai/sdk';
import type { ProgramPolicy } from '@tool-search/code';
import type { AuditHook, Dispatcher } from '@tool-search/hooks';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnthropicMessageShape,
  AnthropicProgramState,
  AnthropicRequestTool,
  AnthropicToolSearchResult,
  AnthropicToolUse,
  answerAnthropicToolSearch,
  checkAnthropicRequest,
  dispatchAnthropicToolUse,
  prepareAnthropicTools,
} from './anthropic.js';
import type {
  answerOpenAIToolSearch,
  dispatchOpenAIFunctionCall,
  OpenAIFunctionCall,
  OpenAIFunctionCallOutput,
  OpenAIProgramState,
  OpenAIRequestTool,
  OpenAIToolSearchOutput,
  prepareOpenAIResponsesTools,
  toStrictOpenAITool,
} from './openai.js';
import type { ProgramCallerPolicy, ProgramRefusalSink, ProviderDispatch } from './programmatic.js';

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

describe('programmatic tool calling against the SDK and sibling types', () => {
  it('Anthropic: reads a real tool_use block and Message, answers a ToolResultBlockParam, passes the container on', () => {
    expectTypeOf<Anthropic.ToolUseBlock>().toExtend<AnthropicToolUse>();
    expectTypeOf<Anthropic.Message>().toExtend<AnthropicMessageShape>();
    expectTypeOf<
      Awaited<ReturnType<typeof dispatchAnthropicToolUse>>
    >().toExtend<Anthropic.ToolResultBlockParam>();
    expectTypeOf<ReturnType<AnthropicProgramState['requestFields']>>().toExtend<
      Pick<Anthropic.MessageCreateParamsNonStreaming, 'container'>
    >();
  });

  it('OpenAI: reads a real function_call item and output, answers a ResponseInputItem', () => {
    expectTypeOf<OpenAI.Responses.ResponseFunctionToolCall>().toExtend<OpenAIFunctionCall>();
    expectTypeOf<OpenAI.Responses.ResponseOutputItem[]>().toExtend<
      Parameters<OpenAIProgramState['observe']>[0]
    >();
    expectTypeOf<
      Awaited<ReturnType<typeof dispatchOpenAIFunctionCall>>
    >().toExtend<OpenAI.Responses.ResponseInputItem>();
    expectTypeOf<OpenAIFunctionCallOutput>().toExtend<OpenAI.Responses.ResponseInputItem.FunctionCallOutput>();
  });

  it('takes the hooks dispatcher and audit hook, and the program policy of @tool-search/code', () => {
    expectTypeOf<Dispatcher>().toExtend<ProviderDispatch>();
    expectTypeOf<AuditHook>().toExtend<ProgramRefusalSink>();
    expectTypeOf<ProgramPolicy>().toExtend<ProgramCallerPolicy>();
  });
});
