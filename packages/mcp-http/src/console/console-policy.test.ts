import type { ToolDefinition } from '@tool-search/core';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { describe, expect, it } from 'vitest';
import { toolPolicies } from './console-policy.js';

const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: name,
  inputSchema: { type: 'object' },
  ...extra,
});

describe('toolPolicies', () => {
  it('says what the config’s own guardrail and approval decide for each tool', async () => {
    const config = parseGatewayConfig({
      mcpServers: {},
      guardrails: { deny: { tools: ['files/delete_*'] } },
      approval: {
        require: { tools: ['write_*'], annotations: { destructiveHint: true } },
        autoApprove: ['read_*'],
        otherwise: 'deny',
      },
    });
    const tools = [
      tool('delete_file', { origin: { server: 'files', name: 'delete_file' } }),
      tool('write_file'),
      tool('read_file', { annotations: { readOnlyHint: true } }),
      tool('wipe', { annotations: { readOnlyHint: true, destructiveHint: true } }),
      tool('rename'),
    ];
    const policies = await toolPolicies(tools, config);
    expect(Object.fromEntries(policies)).toEqual({
      delete_file: {
        approval: 'ask',
        denied: expect.stringContaining('delete_file'),
      },
      write_file: { approval: 'ask' },
      read_file: { approval: 'allow', readOnlyHint: true },
      // What the gateway decides, hints included: a read-only tool is not destructive
      // (MCP's defaults), so the destructiveHint rule leaves it to `otherwise`...
      wipe: { approval: 'deny', readOnlyHint: true },
      // ...and a tool without hints counts as destructive: the rule asks.
      rename: { approval: 'ask' },
    });
  });

  it('lets everything run unasked under the default config', async () => {
    const config = parseGatewayConfig({ mcpServers: {} });
    expect(Object.fromEntries(await toolPolicies([tool('anything')], config))).toEqual({
      anything: { approval: 'allow' },
    });
  });
});
