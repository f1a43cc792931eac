import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, textOf, until, wrapClient } from '../__fixtures__/clients.js';
import {
  everythingServer,
  filesystemServer,
  fixtureServer,
  memoryServer,
  tempWorkspace,
} from '../__fixtures__/servers.js';

describe('createGatewayServer over stdio (spawned like an MCP client does)', () => {
  const workspace = tempWorkspace();
  let gateway: TestClient;
  let stderr = '';

  beforeAll(async () => {
    const configPath = join(workspace.directory, 'gateway.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          everything: everythingServer(),
          filesystem: filesystemServer(workspace.directory),
          memory: memoryServer(join(workspace.directory, 'memory.jsonl')),
          changing: { ...fixtureServer('changing-server.mjs'), trusted: true },
        },
        toolSearch: { enabled: 'on' },
        profiles: { 'no-memory': { disabledToolsets: ['mcp-memory'] } },
      }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL('../__fixtures__/gateway-stdio.mjs', import.meta.url))],
      env: { GATEWAY_CONFIG: configPath, GATEWAY_PROFILE: 'no-memory' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    gateway = wrapClient(client);
    await client.connect(transport);
  }, 30_000);

  afterAll(async () => {
    await gateway?.close();
    workspace.cleanup();
  });

  it('lists the bridge tools in place of the deferred ones, and keeps pinned tools visible', async () => {
    const names = await gateway.names();
    // pinned_status carries _meta["anthropic/alwaysLoad"] upstream, and its server is trusted.
    expect(names).toEqual(['pinned_status', 'tool_search', 'tool_describe', 'tool_call']);
  });

  it('searches and describes the deferred tools of its profile only', async () => {
    const search = await gateway.bridge('tool_search', { query: 'list directory contents' });
    const matches = search['matches'] as { name: string; source_name: string }[];
    expect(matches.map((match) => match.name)).toContain('list_directory');
    expect(search['total_available']).toBeGreaterThan(20);
    const graph = await gateway.bridge('tool_search', { query: 'knowledge graph entities' });
    expect(
      (graph['matches'] as { source_name: string }[]).every(
        (match) => match.source_name !== 'mcp-memory',
      ),
    ).toBe(true);
    const described = await gateway.bridge('tool_describe', { name: 'read_text_file' });
    expect((described['parameters'] as { required: string[] }).required).toContain('path');
  });

  it('calls real servers through tool_call and directly', async () => {
    const read = await gateway.call('tool_call', {
      name: 'read_text_file',
      arguments: { path: join(workspace.directory, 'notes.txt') },
    });
    expect(textOf(read)).toContain('hello from the workspace');
    const sum = await gateway.call('get-sum', { a: 3, b: 4 });
    expect(textOf(sum)).toContain('7');
    const outside = await gateway.call('read_graph', {});
    expect(outside.isError).toBe(true);
  });

  it('sends tools/list_changed after an upstream change', async () => {
    const before = gateway.listChanged();
    await gateway.call('tool_call', { name: 'add_tool', arguments: { name: 'stdio_fresh_tool' } });
    await until(() => gateway.listChanged() > before);
    const search = await gateway.bridge('tool_search', { query: 'stdio_fresh_tool' });
    expect((search['matches'] as { name: string }[])[0]?.name).toBe('stdio_fresh_tool');
  });

  it('writes nothing to stderr when stderr is not a TTY', () => {
    expect(stderr).toBe('');
  });
});
