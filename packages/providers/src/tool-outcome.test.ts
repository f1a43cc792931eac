import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createDispatcher } from '@tool-search/hooks';
import { describe, expect, it } from 'vitest';
import { sessionTools } from './__fixtures__/tools.js';
import {
  prepareAnthropicTools,
  toAnthropicToolResult,
  toolCallFromAnthropic,
} from './anthropic.js';
import {
  prepareOpenAIResponsesTools,
  toOpenAIFunctionOutput,
  toolCallFromOpenAI,
} from './openai.js';

const dispatch = createDispatcher({
  guardrails: [
    {
      name: 'no-deletes',
      check: (call) =>
        call.name.startsWith('delete')
          ? { allow: false, reason: 'deletes are off' }
          : { allow: true },
    },
  ],
  execute: (call) => {
    if (call.name === 'explode') throw new Error('the disk is full');
    return call.name === 'echo_text' ? 'plain text' : { issue: 7 };
  },
});
const call = (name: string) => ({ id: 'c1', name, arguments: { secret: 'arguments' } });

describe('toAnthropicToolResult and toOpenAIFunctionOutput', () => {
  it('give the result alone, never the echoed call, and mark a denied or failed call as an error', async () => {
    const ok = await dispatch(call('create_issue'));
    expect(toAnthropicToolResult('toolu_1', ok)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: '{"issue":7}',
    });
    expect(toOpenAIFunctionOutput('call_1', await dispatch(call('echo_text')))).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'plain text',
    });
    const denied = toAnthropicToolResult('toolu_2', await dispatch(call('delete_repo')));
    expect(denied).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^Denied: .*deletes are off/),
    });
    const failed = toAnthropicToolResult('toolu_3', await dispatch(call('explode')));
    expect(failed).toMatchObject({
      is_error: true,
      content: expect.stringContaining('the disk is full'),
    });
    const failedOpenAI = toOpenAIFunctionOutput('call_3', await dispatch(call('explode')));
    expect(failedOpenAI.output).toMatch(/^Error: .*the disk is full/);
    for (const result of [denied.content, failed.content, failedOpenAI.output]) {
      expect(result).not.toContain('secret');
    }
  });

  it('give a bridge answer as its content, a refusal as an error, a batch without echoed calls', async () => {
    const assembly = assembleTools({ tools: sessionTools, config: { enabled: 'on' } });
    const run = (name: string, args: Record<string, unknown>) =>
      handleBridgeCall(assembly, { name, arguments: args }, (real, ctx) => dispatch(real, ctx))!;
    const search = toAnthropicToolResult('t', await run('tool_search', { query: 'slack' }));
    expect(search.is_error).toBeUndefined();
    expect(JSON.parse(search.content).matches[0].name).toBe('slack_post_message');
    const refused = toAnthropicToolResult('t', await run('tool_describe', { name: 'nope' }));
    expect(refused.is_error).toBe(true);
    const batch = toOpenAIFunctionOutput(
      'c',
      await run('tool_call', {
        calls: [
          { name: 'slack_post_message', arguments: { channel: '#a', text: 'secret' } },
          { name: 'weather_forecast', arguments: { city: 'secret' } },
        ],
      }),
    );
    expect(JSON.parse(batch.output).results).toEqual([
      { status: 'ok', result: { issue: 7 } },
      { status: 'ok', result: { issue: 7 } },
    ]);
    expect(batch.output).not.toContain('secret');
  });
});

describe('toolCallFromOpenAI and toolCallFromAnthropic', () => {
  it('map the name back and restore strict arguments without looking up a schema', async () => {
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      strict: true,
      config: { enabled: 'on' },
    });
    expect(
      toolCallFromOpenAI(prepared, {
        call_id: 'call_1',
        name: prepared.names.toProvider('github.create_issue'),
        arguments: '{"repo":"acme/app","title":"Login","labels":null}',
      }),
    ).toEqual({
      id: 'call_1',
      name: 'github.create_issue',
      arguments: { repo: 'acme/app', title: 'Login' },
    });
    expect(() =>
      toolCallFromOpenAI(prepared, { call_id: 'c', name: 'weather_forecast', arguments: '{oops' }),
    ).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    const loose = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    // Not strict: a null the model sent is the tool's business.
    expect(
      toolCallFromOpenAI(loose, {
        call_id: 'c',
        name: 'github_create_issue',
        arguments: '{"repo":"a","title":"b","labels":null}',
      }).arguments,
    ).toEqual({ repo: 'a', title: 'b', labels: null });
    const anthropic = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect(
      toolCallFromAnthropic(anthropic, {
        id: 't',
        name: 'github_create_issue',
        input: { repo: 'a' },
      }),
    ).toEqual({ id: 't', name: 'github.create_issue', arguments: { repo: 'a' } });
  });
});

describe('input_examples', () => {
  it('pass through from the definition to the Anthropic tool, and tool_describe shows them', async () => {
    const examples = [{ city: 'Lisbon', days: 3 }];
    const tools = sessionTools.map((tool) =>
      tool.name === 'weather_forecast' ? { ...tool, inputExamples: examples } : tool,
    );
    const prepared = await prepareAnthropicTools(tools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const weather = prepared.tools.find((tool) => tool.name === 'weather_forecast');
    expect(weather).toMatchObject({ defer_loading: true, input_examples: examples });
    const assembly = assembleTools({ tools, config: { enabled: 'on' } });
    const described = await handleBridgeCall(
      assembly,
      { name: 'tool_describe', arguments: { name: 'weather_forecast' } },
      (real, ctx) => dispatch(real, ctx),
    );
    expect(described).toMatchObject({ name: 'weather_forecast', input_examples: examples });
  });
});
