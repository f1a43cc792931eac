import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { sessionTools } from './__fixtures__/tools.js';
import {
  type AnthropicRequestTool,
  type AnthropicToolSearchResult,
  answerAnthropicToolSearch,
  checkAnthropicRequest,
  prepareAnthropicTools,
} from './anthropic.js';
import {
  answerOpenAIToolSearch,
  type OpenAIRequestTool,
  type OpenAIToolSearchOutput,
  prepareOpenAIResponsesTools,
  toStrictOpenAITool,
} from './openai.js';

// `pnpm typecheck` compiles this file against the SDKs' own types: when an SDK release
// changes a shape we send, an assignment here stops compiling and CI fails.

describe('the provider types against the SDK types', () => {
  it('Anthropic: request tools are ToolUnion, a search answer is a ToolResultBlockParam', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const tools: Anthropic.ToolUnion[] = prepared.tools;
    const one: Anthropic.ToolUnion = {} as AnthropicRequestTool;
    const answer: Anthropic.ToolResultBlockParam = await answerAnthropicToolSearch(prepared, {
      id: 'toolu_1',
      name: 'tool_search',
      input: { query: 'github issue' },
    });
    const asContent: Anthropic.ContentBlockParam = {} as AnthropicToolSearchResult;
    const params: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      tools: prepared.tools,
      messages: [{ role: 'user', content: [answer] }],
    };
    // A real tool_use block from a Message is accepted by the answer function and the check.
    const block: Anthropic.ToolUseBlock = {
      type: 'tool_use',
      id: 'toolu_2',
      name: 'tool_search',
      input: { query: 'slack' },
      caller: { type: 'direct' },
    };
    await answerAnthropicToolSearch(prepared, block);
    checkAnthropicRequest(params);
    const hosted = await prepareAnthropicTools(sessionTools, {
      mode: 'hosted',
      config: { enabled: 'on' },
    });
    const server: Anthropic.ToolUnion[] = hosted.tools;
    expect([tools.length, server.length, one, asContent]).toBeDefined();
  });

  it('OpenAI: request tools are Responses.Tool, a search answer is a ResponseInputItem', async () => {
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const tools: OpenAI.Responses.Tool[] = prepared.tools;
    const one: OpenAI.Responses.Tool = {} as OpenAIRequestTool;
    // A real tool_search_call output item is accepted by the answer function.
    const call: OpenAI.Responses.ResponseToolSearchCall = {
      type: 'tool_search_call',
      id: 'tsc_1',
      call_id: 'call_1',
      execution: 'client',
      status: 'completed',
      arguments: { query: 'github issue' },
    };
    const output = await answerOpenAIToolSearch(prepared, call);
    const item: OpenAI.Responses.ResponseInputItem = output;
    const param: OpenAI.Responses.ResponseToolSearchOutputItemParam = {} as OpenAIToolSearchOutput;
    const hosted = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'hosted',
      config: { enabled: 'on' },
    });
    const namespaced: OpenAI.Responses.Tool[] = hosted.tools;
    const request: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: 'gpt-5.5',
      input: [item],
      tools: hosted.tools,
    };
    const chat: OpenAI.Chat.Completions.ChatCompletionTool = toStrictOpenAITool(sessionTools[1]!);
    expect([tools.length, one, param, namespaced.length, request.model, chat.type]).toBeDefined();
    expect(output.tools.length).toBeGreaterThan(0);
  });
});
