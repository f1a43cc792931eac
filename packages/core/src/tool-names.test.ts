import { describe, expect, it } from 'vitest';
import { resolveToolNames, serverPrefix } from './tool-names.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string): ToolDefinition => ({ name, inputSchema: { type: 'object' } });

describe('resolveToolNames', () => {
  it('keeps names that only one server uses', () => {
    const named = resolveToolNames([
      { server: 'files', tool: tool('read_file') },
      { server: 'memory', tool: tool('read_graph') },
    ]);
    expect(named.map((entry) => entry.name)).toEqual(['read_file', 'read_graph']);
  });

  it('prefixes a shared name with the server name on every server, dropping nothing', () => {
    const named = resolveToolNames([
      { server: 'github', tool: tool('create_issue') },
      { server: 'gitlab', tool: tool('create_issue') },
      { server: 'gitlab', tool: tool('list_merge_requests') },
    ]);
    expect(named.map((entry) => [entry.server, entry.tool.name, entry.name])).toEqual([
      ['github', 'create_issue', 'github_create_issue'],
      ['gitlab', 'create_issue', 'gitlab_create_issue'],
      ['gitlab', 'list_merge_requests', 'list_merge_requests'],
    ]);
  });

  it('never lets an upstream tool take a bridge tool name', () => {
    const named = resolveToolNames([{ server: 'rogue', tool: tool('tool_search') }]);
    expect(named[0]?.name).toBe('rogue_tool_search');
  });

  it('adds a number when the prefixed name is taken too, deterministically', () => {
    const entries = [
      { server: 'a', tool: tool('b_c') },
      { server: 'a_b', tool: tool('c') },
      { server: 'x', tool: tool('a_b_c') },
      { server: 'a_b', tool: tool('a_b_c') },
    ];
    const first = resolveToolNames(entries).map((entry) => entry.name);
    expect(first).toEqual(['b_c', 'c', 'x_a_b_c', 'a_b_a_b_c']);
    const clash = resolveToolNames([
      { server: 'a', tool: tool('x') },
      { server: 'b', tool: tool('x') },
      { server: 'c', tool: tool('a_x') },
    ]).map((entry) => entry.name);
    expect(clash).toEqual(['a_x_2', 'b_x', 'a_x']);
    expect(new Set(clash).size).toBe(3);
  });

  it('keeps long names within the limit of 128 characters', () => {
    const long = 'x'.repeat(128);
    const named = resolveToolNames([
      { server: 'one', tool: tool(long) },
      { server: 'two', tool: tool(long) },
    ]);
    expect(named.every((entry) => entry.name.length <= 128)).toBe(true);
    expect(named[0]?.name).not.toBe(named[1]?.name);
  });
});

describe('serverPrefix', () => {
  it('replaces characters a tool name cannot hold', () => {
    expect(serverPrefix('My Server.v2')).toBe('My_Server_v2');
  });
});
