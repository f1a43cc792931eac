import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createToolPolicyGuardrail } from './tool-policy-guardrail.js';
import type { DispatchContext, Guardrail } from './types.js';

const tools: ToolDefinition[] = [
  { name: 'github_create_issue', inputSchema: {}, source: 'mcp', toolset: 'mcp-github' },
  { name: 'github_delete_repository', inputSchema: {}, source: 'mcp', toolset: 'mcp-github' },
  { name: 'slack_post_message', inputSchema: {}, source: 'mcp', toolset: 'mcp-slack' },
  { name: 'read_file', inputSchema: {}, source: 'core' },
];

function check(guardrail: Guardrail, name: string, known = true) {
  const call: ToolCall = { name, arguments: {} };
  const ctx: DispatchContext = {
    via: 'direct',
    signal: new AbortController().signal,
    ...(known ? { tool: tools.find((tool) => tool.name === name) } : {}),
  };
  return guardrail.check(call, ctx);
}

describe('createToolPolicyGuardrail', () => {
  it('allows everything without rules', () => {
    const guardrail = createToolPolicyGuardrail({});
    expect(guardrail.name).toBe('tool-policy');
    for (const tool of tools) expect(check(guardrail, tool.name)).toEqual({ allow: true });
  });

  it('denies tools matching a deny pattern, by name or by toolset', () => {
    const guardrail = createToolPolicyGuardrail({
      deny: { tools: ['*_delete_*'], toolsets: ['mcp-slack'] },
    });
    expect(check(guardrail, 'github_create_issue')).toEqual({ allow: true });
    expect(check(guardrail, 'read_file')).toEqual({ allow: true });
    expect(check(guardrail, 'github_delete_repository')).toEqual({
      allow: false,
      reason: "The tool 'github_delete_repository' is denied by policy.",
    });
    expect(check(guardrail, 'slack_post_message')).toEqual({
      allow: false,
      reason:
        "The tool 'slack_post_message' is denied by policy: its toolset 'mcp-slack' is denied.",
    });
  });

  it('denies everything an allow-list does not list', () => {
    const guardrail = createToolPolicyGuardrail({
      allow: { toolsets: ['mcp-github'], tools: ['read_*'] },
    });
    expect(check(guardrail, 'github_create_issue')).toEqual({ allow: true });
    expect(check(guardrail, 'read_file')).toEqual({ allow: true });
    expect(check(guardrail, 'slack_post_message')).toEqual({
      allow: false,
      reason:
        "The tool 'slack_post_message' is not allowed by policy (allowed: tools read_*; toolsets mcp-github).",
    });
  });

  it('lets deny win over allow', () => {
    const guardrail = createToolPolicyGuardrail({
      allow: { toolsets: ['mcp-github'] },
      deny: ['github_delete_*'],
    });
    expect(check(guardrail, 'github_create_issue')).toEqual({ allow: true });
    expect(check(guardrail, 'github_delete_repository')).toMatchObject({ allow: false });
  });

  it('takes an empty allow-list to deny everything', () => {
    const guardrail = createToolPolicyGuardrail({ allow: [] });
    for (const tool of tools) expect(check(guardrail, tool.name)).toMatchObject({ allow: false });
  });

  it('takes a bare array as tool-name patterns', () => {
    const guardrail = createToolPolicyGuardrail({ allow: ['slack_*'] });
    expect(check(guardrail, 'slack_post_message')).toEqual({ allow: true });
    expect(check(guardrail, 'github_create_issue')).toMatchObject({ allow: false });
  });

  it('fails closed on toolset rules when the tool is unknown', () => {
    const denyToolsets = createToolPolicyGuardrail({ deny: { toolsets: ['mcp-slack'] } });
    expect(check(denyToolsets, 'slack_post_message', false)).toMatchObject({
      allow: false,
      reason: expect.stringContaining('its toolset is unknown'),
    });
    const allowToolsets = createToolPolicyGuardrail({ allow: { toolsets: ['mcp-github'] } });
    expect(check(allowToolsets, 'github_create_issue', false)).toMatchObject({ allow: false });
    const byName = createToolPolicyGuardrail({ deny: ['github_delete_*'] });
    expect(check(byName, 'github_create_issue', false)).toEqual({ allow: true });
  });

  it('ignores a context tool of another name', () => {
    const guardrail = createToolPolicyGuardrail({ allow: { toolsets: ['mcp-github'] } });
    const ctx: DispatchContext = {
      via: 'direct',
      signal: new AbortController().signal,
      tool: tools[0],
    };
    expect(guardrail.check({ name: 'slack_post_message', arguments: {} }, ctx)).toMatchObject({
      allow: false,
    });
  });

  it('throws on a pattern that is not a string', () => {
    expect(() => createToolPolicyGuardrail({ deny: [1 as unknown as string] })).toThrow(
      /must be strings/,
    );
  });

  it('takes a name', () => {
    expect(createToolPolicyGuardrail({ name: 'prod-policy' }).name).toBe('prod-policy');
  });
});
