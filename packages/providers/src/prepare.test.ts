import { estimateToolTokens, type ToolDefinition, ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { sessionTools } from './__fixtures__/tools.js';
import {
  answerAnthropicToolSearch,
  checkAnthropicRequest,
  prepareAnthropicTools,
} from './anthropic.js';
import { resolveProviderMode } from './capabilities.js';
import { answerOpenAIToolSearch, prepareOpenAIResponsesTools } from './openai.js';

const deferrable = sessionTools.filter((tool) => tool.source === 'mcp' || tool.source === 'plugin');
const deferrableTokens = estimateToolTokens(deferrable);

function errorOf(run: () => unknown): ToolSearchError {
  try {
    run();
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not throw');
}

async function rejectionOf(promise: Promise<unknown>): Promise<ToolSearchError> {
  try {
    await promise;
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not reject');
}

describe('the activation decision', () => {
  it('is the same threshold and estimate in every mode and for both providers', async () => {
    for (const mode of ['client', 'hosted', 'bridge'] as const) {
      const at = { mode, config: { threshold_tokens: deferrableTokens } };
      const below = { mode, config: { threshold_tokens: deferrableTokens + 1 } };
      const anthropicAt = await prepareAnthropicTools(sessionTools, at);
      const openaiAt = await prepareOpenAIResponsesTools(sessionTools, at);
      expect([anthropicAt.mode, openaiAt.mode]).toEqual([mode, mode]);
      expect(anthropicAt.decision).toEqual({
        active: true,
        reason: 'above-threshold',
        deferrableTokens,
        thresholdTokens: deferrableTokens,
      });
      expect(openaiAt.decision).toEqual(anthropicAt.decision);
      const anthropicBelow = await prepareAnthropicTools(sessionTools, below);
      const openaiBelow = await prepareOpenAIResponsesTools(sessionTools, below);
      expect([anthropicBelow.mode, openaiBelow.mode]).toEqual(['off', 'off']);
      expect(anthropicBelow.tools.map((tool) => tool.name)).toEqual([
        'read_file',
        'github_create_issue',
        'github_list_pull_requests',
        'slack_post_message',
        'weather_forecast',
      ]);
      expect(anthropicBelow.deferred).toEqual([]);
    }
  });

  it('never defers core tools, tools of unknown source, or pinned tools', async () => {
    const tools: ToolDefinition[] = [
      ...sessionTools,
      { name: 'unknown_source', inputSchema: { type: 'object' } },
      {
        name: 'pinned_by_server',
        inputSchema: { type: 'object' },
        source: 'mcp',
        alwaysLoad: true,
      },
    ];
    const prepared = await prepareAnthropicTools(tools, {
      mode: 'hosted',
      config: { enabled: 'on' },
      pinned: ['slack_post_message'],
    });
    const loaded = prepared.tools
      .filter((tool) => !('defer_loading' in tool && tool.defer_loading))
      .map((tool) => tool.name);
    expect(loaded).toEqual([
      'read_file',
      'slack_post_message',
      'unknown_source',
      'pinned_by_server',
      'tool_search_tool_bm25',
    ]);
    expect(prepared.deferred).toEqual([
      'github.create_issue',
      'github_list_pull_requests',
      'weather_forecast',
    ]);
  });

  it('sends nothing but the tools it was given, and a search answers only deferred ones', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const answer = await answerAnthropicToolSearch(prepared, {
      id: 'toolu_1',
      name: 'tool_search',
      input: { query: 'read a file from the workspace', limit: 20 },
    });
    const names = answer.content.flatMap((block) =>
      block.type === 'tool_reference' ? [block.tool_name] : [],
    );
    expect(names).not.toContain('read_file');
    for (const name of names)
      expect(prepared.deferred.map((own) => prepared.names.toProvider(own))).toContain(name);
  });
});

describe('the request bytes', () => {
  it('are identical from turn to turn for the same tools, in every mode, so the prompt cache survives', async () => {
    for (const mode of ['client', 'hosted', 'bridge'] as const) {
      const options = { mode, config: { enabled: 'on' } };
      const copy = structuredClone(sessionTools);
      expect(JSON.stringify((await prepareAnthropicTools(copy, options)).tools)).toBe(
        JSON.stringify((await prepareAnthropicTools(sessionTools, options)).tools),
      );
      expect(JSON.stringify((await prepareOpenAIResponsesTools(copy, options)).tools)).toBe(
        JSON.stringify((await prepareOpenAIResponsesTools(sessionTools, options)).tools),
      );
    }
  });
});

describe('answerAnthropicToolSearch', () => {
  const many: ToolDefinition[] = Array.from({ length: 30 }, (_, index) => ({
    name: `issue_tool_${index}`,
    description: `Manage issue number ${index}`,
    inputSchema: { type: 'object' },
    source: 'mcp' as const,
  }));

  it('returns 5 references by default and clamps the limit to [1, 20]', async () => {
    const prepared = await prepareAnthropicTools([sessionTools[0]!, ...many], {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const count = async (input: unknown) =>
      (await answerAnthropicToolSearch(prepared, { id: 't', name: 'tool_search', input })).content
        .length;
    expect(await count({ query: 'issue' })).toBe(5);
    expect(await count({ query: 'issue', limit: 100 })).toBe(20);
    expect(await count({ query: 'issue', limit: 0 })).toBe(1);
    expect(await count({ query: 'issue', limit: '3' })).toBe(3);
  });

  it('answers an error the model can act on for a call without a query, and a text when nothing matches', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect(
      await answerAnthropicToolSearch(prepared, { id: 't1', name: 'tool_search', input: {} }),
    ).toEqual({
      type: 'tool_result',
      tool_use_id: 't1',
      content: [{ type: 'text', text: 'query is required' }],
      is_error: true,
    });
    const none = await answerAnthropicToolSearch(prepared, {
      id: 't2',
      name: 'tool_search',
      input: { query: 'zzzz' },
    });
    expect(none.content).toEqual([
      {
        type: 'text',
        text: 'No tool matches this search. Search again with other words, or use the tools you already have.',
      },
    ]);
  });

  it('throws a typed error for a preparation that is not in client mode or a call of another tool', async () => {
    const hosted = await prepareAnthropicTools(sessionTools, {
      mode: 'hosted',
      config: { enabled: 'on' },
    });
    expect(
      (
        await rejectionOf(
          answerAnthropicToolSearch(hosted, { id: 't', name: 'tool_search', input: {} }),
        )
      ).code,
    ).toBe('invalid_argument');
    const client = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect(
      (
        await rejectionOf(
          answerAnthropicToolSearch(client, { id: 't', name: 'read_file', input: {} }),
        )
      ).code,
    ).toBe('invalid_argument');
  });
});

describe('the pre-send checks', () => {
  it('reject two tools of one name whether or not tool search activates', async () => {
    const twice = [...sessionTools, sessionTools[1]!];
    for (const enabled of ['on', 'off']) {
      const error = await rejectionOf(
        prepareAnthropicTools(twice, { mode: 'client', config: { enabled } }),
      );
      expect([error.code, error.data?.tool]).toEqual([
        'duplicate_tool_name',
        'github.create_issue',
      ]);
      const openai = await rejectionOf(
        prepareOpenAIResponsesTools(twice, { mode: 'client', config: { enabled } }),
      );
      expect(openai.code).toBe('duplicate_tool_name');
    }
  });

  it('reject a tool that takes a custom search tool name, and drop stale bridge tools in every mode', async () => {
    const taken = [
      ...sessionTools,
      { name: 'find_tools', inputSchema: { type: 'object' }, source: 'core' as const },
    ];
    const error = await rejectionOf(
      prepareAnthropicTools(taken, {
        mode: 'client',
        searchToolName: 'find_tools',
        config: { enabled: 'on' },
      }),
    );
    expect([error.code, error.data?.tool]).toEqual(['duplicate_tool_name', 'find_tools']);
    const stale = [
      ...sessionTools,
      { name: 'tool_search', inputSchema: { type: 'object' }, source: 'core' as const },
    ];
    for (const enabled of ['on', 'off']) {
      const anthropic = await prepareAnthropicTools(stale, { mode: 'client', config: { enabled } });
      expect(anthropic.tools.filter((tool) => tool.name === 'tool_search')).toHaveLength(
        enabled === 'on' ? 1 : 0,
      );
      const openai = await prepareOpenAIResponsesTools(stale, {
        mode: 'client',
        config: { enabled },
      });
      expect(openai.tools.filter((tool) => 'name' in tool && tool.name === 'tool_search')).toEqual(
        [],
      );
    }
  });

  it('reject a request whose tools are all deferred, and a reference to a tool that is not deferred in it', () => {
    expect(
      errorOf(() => checkAnthropicRequest({ tools: [{ name: 'a', defer_loading: true }] })).code,
    ).toBe('invalid_argument');
    const error = errorOf(() =>
      checkAnthropicRequest({
        tools: [{ name: 'search' }, { name: 'a', defer_loading: true }],
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [{ type: 'tool_reference', tool_name: 'gone' }],
              },
            ],
          },
        ],
      }),
    );
    expect([error.code, error.data?.tool]).toEqual(['invalid_argument', 'gone']);
    expect(() =>
      checkAnthropicRequest({
        tools: [{ name: 'search' }, { name: 'a', defer_loading: true }],
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [{ type: 'tool_reference', tool_name: 'a' }],
              },
            ],
          },
        ],
      }),
    ).not.toThrow();
  });

  it('reject input that is not a tool list, or a tool without a name, with a typed error', async () => {
    expect((await rejectionOf(prepareAnthropicTools('tools' as never))).code).toBe(
      'invalid_argument',
    );
    const broken = [sessionTools[0]!, null, { inputSchema: {} }] as never;
    const error = await rejectionOf(prepareOpenAIResponsesTools(broken));
    expect([error.code, error.data?.field]).toEqual(['invalid_tool_definition', 'tools[1]']);
    const client = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect((await rejectionOf(answerOpenAIToolSearch(client, null as never))).code).toBe(
      'invalid_argument',
    );
    const anthropic = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect((await rejectionOf(answerAnthropicToolSearch(anthropic, undefined as never))).code).toBe(
      'invalid_argument',
    );
  });

  it('reject a search tool name Anthropic does not accept', async () => {
    const error = await rejectionOf(
      prepareAnthropicTools(sessionTools, {
        mode: 'client',
        searchToolName: 'find tools',
        config: { enabled: 'on' },
      }),
    );
    expect([error.code, error.data?.field]).toEqual(['invalid_argument', 'searchToolName']);
  });
});

describe('auto mode', () => {
  it('picks by provider and model from the capability table, which the caller can extend', async () => {
    expect(resolveProviderMode('anthropic', 'claude-sonnet-4-5-20250929')).toBe('client');
    expect(resolveProviderMode('anthropic', 'claude-opus-4-6')).toBe('client');
    expect(resolveProviderMode('anthropic', 'claude-sonnet-4-20250514')).toBe('bridge');
    expect(resolveProviderMode('anthropic', 'claude-3-5-haiku-latest')).toBe('bridge');
    for (const model of [
      'claude-opus-5-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-fable-5-1',
      'claude-mythos-5',
      'anthropic/claude-mythos-5.2',
    ]) {
      expect(resolveProviderMode('anthropic', model)).toBe('client');
    }
    expect(resolveProviderMode('anthropic', 'claude-fable-4')).toBe('bridge');
    expect(resolveProviderMode('gemini', 'gemini-3.6-pro')).toBe('client');
    expect(resolveProviderMode('gemini', 'models/gemini-4-flash')).toBe('client');
    expect(resolveProviderMode('gemini', 'gemini-3.5-flash')).toBe('bridge');
    expect(resolveProviderMode('gemini', 'gemini-3.60')).toBe('client');
    expect(resolveProviderMode('openai', 'gpt-5.4')).toBe('client');
    expect(resolveProviderMode('openai', 'gpt-5.4-mini')).toBe('client');
    expect(resolveProviderMode('openai', 'gpt-5.10')).toBe('client');
    expect(resolveProviderMode('openai', 'gpt-5.1')).toBe('bridge');
    expect(resolveProviderMode('openai', 'gpt-4.1')).toBe('bridge');
    expect(resolveProviderMode('openai', undefined)).toBe('bridge');
    expect(resolveProviderMode('openai', 'claude-sonnet-4-5')).toBe('bridge');
    const mine = [
      { provider: 'openai' as const, model: 'my-gateway/', modes: ['hosted' as const] },
    ];
    expect(resolveProviderMode('openai', 'my-gateway/gpt', 'auto', mine)).toBe('hosted');
    expect(
      resolveProviderMode('openai', 'gpt-5.5', 'auto', [
        { provider: 'openai', model: /^gpt-5\.5/, modes: [] },
      ]),
    ).toBe('bridge');
    expect(errorOf(() => resolveProviderMode('openai', 'gpt-5.5', 'native' as never)).code).toBe(
      'invalid_argument',
    );

    const warnings: string[] = [];
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      model: 'gpt-4.1',
      config: { enabled: 'on' },
      logger: { warn: (message) => void warnings.push(message) },
    });
    // No native tool search and no bridge given: every tool is sent as it is, loudly.
    expect(prepared.mode).toBe('off');
    expect(prepared.reason).toMatch(/'gpt-4\.1' has no native tool search/);
    expect(prepared.tools).toHaveLength(sessionTools.length);
    expect(warnings).toHaveLength(1);
    expect(prepared.deferred).toHaveLength(0);
  });
});

describe('answerOpenAIToolSearch', () => {
  it('answers JSON-text arguments, clamps the limit, and answers no tools for a call without a query', async () => {
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const found = await answerOpenAIToolSearch(prepared, {
      call_id: 'c1',
      arguments: '{"query":"github","limit":1}',
    });
    expect(found).toMatchObject({
      type: 'tool_search_output',
      call_id: 'c1',
      execution: 'client',
      status: 'completed',
    });
    expect(found.tools.map((tool) => tool.name)).toHaveLength(1);
    expect(
      (await answerOpenAIToolSearch(prepared, { call_id: 'c2', arguments: {} })).tools,
    ).toEqual([]);
    const hosted = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'hosted',
      config: { enabled: 'on' },
    });
    expect(
      (await rejectionOf(answerOpenAIToolSearch(hosted, { call_id: 'c', arguments: {} }))).code,
    ).toBe('invalid_argument');
  });
});
