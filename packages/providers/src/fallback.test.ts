import { assembleTools } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { prepareAnthropicTools } from './anthropic.js';
import { canonicalModelId, chooseProviderMode } from './capabilities.js';
import { prepareOpenAIResponsesTools } from './openai.js';

// A session as users report it: one core tool and 300 MCP tools.
const many: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    source: 'core',
  },
  ...Array.from({ length: 300 }, (_, index) => ({
    name: `server_${index % 7}_tool_${index}`,
    description: `Tool number ${index} of server ${index % 7}: does one thing well.`,
    inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    source: 'mcp' as const,
    toolset: `mcp-server-${index % 7}`,
  })),
];
const allNames = many.map((tool) => tool.name);

function recorder() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => void warnings.push(message) } };
}

// Every tool is reachable: sent as it is, sent deferred, or behind the bridge tools.
function reachable(prepared: { tools: unknown[]; deferred: readonly string[] }): string[] {
  const sent = prepared.tools.flatMap((tool) => {
    const record = tool as { name?: string; tools?: { name: string }[] };
    return record.tools ? record.tools.map((inner) => inner.name) : [record.name ?? ''];
  });
  const bridged = sent.includes('tool_call') ? prepared.deferred : [];
  return [...new Set([...sent, ...bridged])].filter((name) => allNames.includes(name)).sort();
}

describe('canonicalModelId', () => {
  it('reads the id forms of Bedrock, Vertex, routers and dotted versions as the API spells them', () => {
    expect(canonicalModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(
      'claude-sonnet-4-5-20250929',
    );
    expect(canonicalModelId('anthropic.claude-opus-4-5-20251101-v1:0')).toBe(
      'claude-opus-4-5-20251101',
    );
    expect(canonicalModelId('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4-5');
    expect(canonicalModelId('anthropic/claude-sonnet-4.5')).toBe('claude-sonnet-4-5');
    expect(canonicalModelId('openai/gpt-5.4')).toBe('gpt-5.4');
    expect(canonicalModelId('GPT-5.5')).toBe('gpt-5.5');
  });
});

describe('auto mode with every usual id form', () => {
  const native: [string, 'anthropic' | 'openai'][] = [
    ['claude-sonnet-4-5', 'anthropic'],
    ['claude-sonnet-4-5-20250929', 'anthropic'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'anthropic'],
    ['global.anthropic.claude-haiku-4-5-20251001-v1:0', 'anthropic'],
    ['claude-sonnet-4-5@20250929', 'anthropic'],
    ['anthropic/claude-sonnet-4.5', 'anthropic'],
    ['anthropic/claude-opus-4.6', 'anthropic'],
    ['gpt-5.4', 'openai'],
    ['gpt-5.4-2026-03-05', 'openai'],
    ['openai/gpt-5.5', 'openai'],
  ];

  it.each(native)(
    '%s picks the native client mode and defers every MCP tool',
    async (model, provider) => {
      const { warnings, logger } = recorder();
      const prepare =
        provider === 'anthropic' ? prepareAnthropicTools : prepareOpenAIResponsesTools;
      const prepared = await prepare(many, { model, config: { enabled: 'on' }, logger });
      expect(prepared.mode).toBe('client');
      expect(prepared.reason).toContain('supports native tool search');
      expect(prepared.searchToolName).toBe('tool_search');
      expect(prepared.deferred).toHaveLength(300);
      expect(warnings).toEqual([]);
    },
  );

  const fallback: [string | undefined, 'anthropic' | 'openai', RegExp][] = [
    ['claude-opus-4-1', 'anthropic', /'claude-opus-4-1' has no native tool search/],
    ['claude-3-5-haiku-latest', 'anthropic', /has no native tool search/],
    ['gpt-5', 'openai', /'gpt-5' has no native tool search/],
    ['o3', 'openai', /'o3' has no native tool search/],
    ['my-fine-tune', 'openai', /is not a openai model the capability table knows/],
    [undefined, 'anthropic', /no model was given/],
    [undefined, 'openai', /no model was given/],
  ];

  it.each(fallback)(
    '%s (%s) keeps all 301 tools reachable, says why and warns once',
    async (model, provider, reason) => {
      const { warnings, logger } = recorder();
      const prepare =
        provider === 'anthropic' ? prepareAnthropicTools : prepareOpenAIResponsesTools;
      const options = model === undefined ? {} : { model };
      const prepared = await prepare(many, { ...options, config: { enabled: 'on' }, logger });
      expect(prepared.mode).toBe('off');
      expect(prepared.reason).toMatch(reason);
      expect(reachable(prepared)).toEqual([...allNames].sort());
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('bridge: assembleTools');

      // With the bridge given, the same fallback defers them behind the three bridge tools.
      const bridged = await prepare(many, {
        ...options,
        config: { enabled: 'on' },
        logger,
        bridge: assembleTools,
      });
      expect(bridged.mode).toBe('bridge');
      expect(bridged.tools.map((tool) => (tool as { name: string }).name)).toEqual([
        'read_file',
        'tool_search',
        'tool_describe',
        'tool_call',
      ]);
      expect(reachable(bridged)).toEqual([...allNames].sort());
      expect(bridged.bridge?.catalog.size).toBe(300);
      expect(warnings).toHaveLength(1);
    },
  );

  it('an explicit bridge mode without the assembler keeps the visible tools and warns', async () => {
    const { warnings, logger } = recorder();
    const prepared = await prepareAnthropicTools(many, {
      mode: 'bridge',
      config: { enabled: 'on' },
      logger,
    });
    expect(prepared.mode).toBe('bridge');
    expect(prepared.tools.map((tool) => (tool as { name: string }).name)).toEqual(['read_file']);
    expect(prepared.reason).toContain('without `bridge`');
    expect(warnings).toHaveLength(1);
  });

  it('below the threshold nothing is deferred and nothing is warned, with the reason', async () => {
    const { warnings, logger } = recorder();
    const prepared = await prepareOpenAIResponsesTools(many, {
      model: 'o3',
      config: { enabled: 'off' },
      logger,
    });
    expect(prepared.mode).toBe('off');
    expect(prepared.reason).toContain('tool search is off');
    expect(prepared.tools).toHaveLength(301);
    expect(warnings).toEqual([]);
  });

  it('a caller row matches the raw id or its canonical form', () => {
    const rows = [
      { provider: 'anthropic' as const, model: 'claude-proxy', modes: ['hosted' as const] },
    ];
    expect(
      chooseProviderMode('anthropic', 'eu.anthropic.claude-proxy-v2:0', 'auto', rows).mode,
    ).toBe('hosted');
  });
});
