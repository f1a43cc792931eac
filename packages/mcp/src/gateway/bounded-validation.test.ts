import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '@tool-search/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../config/parse.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import type { GatewayToolSource } from './types.js';

// A hostile upstream's schemas behind the gateway, with schema checks on: every call
// answers (the event loop is never held), and the size limit comes before any check.
const treeWalk: ToolDefinition = {
  name: 'tree_walk',
  description: 'Walk a tree',
  inputSchema: {
    type: 'object',
    properties: { tree: { $ref: '#/$defs/node' }, note: { type: 'string' } },
    $defs: {
      node: {
        anyOf: [
          { type: 'array', items: { $ref: '#/$defs/node' } },
          { type: 'array', items: { $ref: '#/$defs/node' } },
        ],
      },
    },
  },
  source: 'mcp',
  toolset: 'mcp-hostile',
};

function deepTree(depth: number): unknown {
  let value: unknown = 0;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe('the gateway checks arguments within a budget', () => {
  const called: string[] = [];
  const pool: GatewayToolSource = {
    tools: () => [treeWalk],
    callTool: async (name) => {
      called.push(name);
      return { content: [{ type: 'text', text: 'walked' }] };
    },
    onToolsChanged: () => () => {},
  };
  let gateway: GatewayServer;
  let client: Client;
  const reported: { tool?: string; keyword: string; pointer: string }[] = [];

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: {},
      toolSearch: { enabled: 'on' },
      guardrails: { validateArguments: true, maxArgumentBytes: 2_000 },
    });
    gateway = createGatewayServer({
      pool,
      config,
      onSkippedKeyword: (skipped) => reported.push(skipped),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  const textOf = (result: unknown) =>
    ((result as CallToolResult).content as { type: string; text?: string }[])
      .map((part) => part.text ?? '')
      .join('\n');

  it('answers a call whose recursive anyOf doubles per level, naming the keyword, and calls nothing', async () => {
    const result = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'tree_walk', arguments: { tree: deepTree(40) } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("'anyOf' at /$defs/node/anyOf");
    expect(called).toEqual([]);
    // Told once, though both the bridge and the schema guardrail met it.
    expect(reported).toEqual([
      expect.objectContaining({
        tool: 'tree_walk',
        keyword: 'anyOf',
        pointer: '/$defs/node/anyOf',
      }),
    ]);
  });

  it('refuses arguments over maxArgumentBytes in the bridge, before their schema is checked', async () => {
    const result = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'tree_walk', arguments: { tree: deepTree(40), note: 'x'.repeat(3_000) } },
    });
    // The bridge's own refusal (not the size guardrail's, which runs after the bridge).
    expect(textOf(result)).toContain('arguments (maxArgumentBytes)');
    expect(textOf(result)).toContain('at most 2000 are allowed');
    expect(textOf(result)).not.toContain('/$defs/node/anyOf');
    expect(called).toEqual([]);
  });

  it('calls the tool when its arguments fit', async () => {
    const result = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'tree_walk', arguments: { tree: [[], [[]]] } },
    });
    expect(textOf(result)).toContain('walked');
    expect(called).toEqual(['tree_walk']);
  });
});
