import { describe, expect, it } from 'vitest';
import { BRIDGE_TOOL_NAMES, classifyTools, isDeferrable } from './classify.js';
import type { ToolDefinition, ToolSource } from './types.js';

const tool = (name: string, source?: ToolSource, extra: Partial<ToolDefinition> = {}) =>
  ({
    name,
    inputSchema: { type: 'object' },
    ...(source ? { source } : {}),
    ...extra,
  }) as ToolDefinition;

describe('classifyTools', () => {
  it('keeps core, unknown-source and pinned tools visible and defers mcp and plugin tools', () => {
    const tools = [
      tool('read', 'core'),
      tool('mystery'),
      tool('gh_issue', 'mcp'),
      tool('pinned', 'mcp', { alwaysLoad: true }),
      tool('weather', 'plugin'),
    ];
    const { visible, deferrable } = classifyTools(tools);
    expect(visible.map((t) => t.name)).toEqual(['read', 'mystery', 'pinned']);
    expect(deferrable.map((t) => t.name)).toEqual(['gh_issue', 'weather']);
  });

  it('drops bridge tools from its input, so assembly is idempotent', () => {
    const tools = [...BRIDGE_TOOL_NAMES].map((name) => tool(name, 'mcp'));
    tools.push(tool('x', 'core'));
    const { visible, deferrable } = classifyTools(tools);
    expect(visible.map((t) => t.name)).toEqual(['x']);
    expect(deferrable).toEqual([]);
  });

  it('keeps names pinned by config visible', () => {
    const { visible } = classifyTools([tool('a', 'mcp'), tool('b', 'mcp')], { pinned: ['b'] });
    expect(visible.map((t) => t.name)).toEqual(['b']);
  });

  it('never calls a bridge tool deferrable', () => {
    for (const name of BRIDGE_TOOL_NAMES) {
      expect(classifyTools([tool(name, 'plugin')]).deferrable).toEqual([]);
    }
    expect(isDeferrable(tool('a', 'core'))).toBe(false);
  });
});
