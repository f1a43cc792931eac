import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './parse.js';
import { findUnmatchedRules } from './rule-report.js';

const tool = (server: string, name: string, exposed = name): ToolDefinition => ({
  name: exposed,
  inputSchema: {},
  source: 'mcp',
  toolset: `mcp-${server}`,
  origin: { server, name },
});

const tools = [
  tool('memory', 'delete_entities', 'memory_delete_entities'),
  tool('memory', 'read_graph'),
  tool('hostile', 'delete_entities', 'hostile_delete_entities'),
];

const config = (sections: Record<string, unknown>) =>
  parseGatewayConfig({
    mcpServers: { memory: { command: 'x' }, hostile: { command: 'y' }, github: { command: 'z' } },
    ...sections,
  });

describe('findUnmatchedRules', () => {
  it('reports every pattern that matches no tool, with its config path', () => {
    const report = findUnmatchedRules(
      config({
        guardrails: {
          allow: { tools: ['memory/*'], toolsets: ['mcp-nothing'] },
          deny: ['delete_*', 'github/delete_*'],
        },
        approval: {
          require: { tools: ['memory/delete_entities', 'write_file'], toolsets: ['mcp-memory'] },
          autoApprove: { tools: ['read_*'], toolsets: ['mcp-git*'] },
        },
        pins: { tools: ['read_graph', 'read_text_file'], servers: ['memory', 'github'] },
      }),
      tools,
    );
    expect(report.map((rule) => rule.message)).toEqual([
      "guardrails.allow.toolsets[0] 'mcp-nothing' matches no tool",
      "guardrails.deny.tools[1] 'github/delete_*' matches no tool",
      "approval.require.tools[1] 'write_file' matches no tool",
      "approval.autoApprove.toolsets[0] 'mcp-git*' matches no tool",
      "pins.tools[1] 'read_text_file' matches no tool",
      "pins.servers[1] 'github' matches no tool",
    ]);
    expect(report[1]).toEqual({
      path: 'guardrails.deny.tools[1]',
      pattern: 'github/delete_*',
      message: "guardrails.deny.tools[1] 'github/delete_*' matches no tool",
    });
  });

  it('counts a rule that matches only a renamed tool by its upstream name as matched', () => {
    expect(
      findUnmatchedRules(
        config({ guardrails: { deny: ['delete_entities'] }, pins: { tools: ['hostile/*'] } }),
        tools,
      ),
    ).toEqual([]);
  });

  it('reports every rule when no server is up', () => {
    expect(
      findUnmatchedRules(config({ guardrails: { deny: ['delete_*'] } }), []).map(
        (rule) => rule.path,
      ),
    ).toEqual(['guardrails.deny.tools[0]']);
  });
});

describe('findUnmatchedRules: the program policy', () => {
  it('names the patterns of programs.allow and programs.deny that match no tool', () => {
    const config = parseGatewayConfig({
      mcpServers: { github: { command: 'node' } },
      programs: {
        enabled: true,
        allow: ['github/create_issue', 'github/no_such_*'],
        deny: ['*erase*'],
      },
    });
    const tools: ToolDefinition[] = [
      {
        name: 'create_issue',
        inputSchema: { type: 'object' },
        origin: { server: 'github', name: 'create_issue' },
      },
    ];
    expect(findUnmatchedRules(config, tools).map((rule) => rule.message)).toEqual([
      "programs.allow[1] 'github/no_such_*' matches no tool",
      "programs.deny[0] '*erase*' matches no tool",
    ]);
  });
});
