import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { CLI } from './__fixtures__/paths.js';
import { runCli } from './__fixtures__/run.js';
import {
  loadRecordedCatalog,
  RECORDED_META_KEY,
  recordedServerKeys,
  selectRecordedTools,
} from './recorded-server.js';

const catalog = loadRecordedCatalog();

describe('selectRecordedTools', () => {
  it('serves all 397 recorded tools of 23 servers under unique <server>__<name> names', () => {
    const served = selectRecordedTools(catalog);
    expect(served).toHaveLength(397);
    expect(recordedServerKeys(catalog)).toHaveLength(23);
    expect(new Set(served.map((item) => item.tool.name)).size).toBe(397);
    expect(served.map((item) => item.tool.name)).toContain('github__create_issue');
  });

  it('keeps the raw schema, annotations and the recorded origin', () => {
    const item = selectRecordedTools(catalog, { servers: ['filesystem'] }).find(
      (entry) => entry.tool.name === 'filesystem__write_file',
    );
    expect(item?.tool.annotations?.destructiveHint).toBe(true);
    expect(item?.tool.inputSchema).toEqual(
      catalog.find((entry) => entry.id === 'filesystem::write_file')?.inputSchema,
    );
    expect(item?.tool._meta?.[RECORDED_META_KEY]).toMatchObject({
      server: 'filesystem',
      name: 'write_file',
      package: '@modelcontextprotocol/server-filesystem',
    });
  });

  it('selects and excludes servers', () => {
    expect(selectRecordedTools(catalog, { servers: ['github', 'slack'] })).toHaveLength(34);
    expect(
      selectRecordedTools(catalog, { exclude: ['everything', 'filesystem', 'memory'] }),
    ).toHaveLength(397 - 36);
  });

  it('serves published names on request, and refuses them when two servers clash', () => {
    const raw = selectRecordedTools(catalog, { servers: ['github'], naming: 'raw' });
    expect(raw.map((item) => item.tool.name)).toContain('create_issue');
    expect(() =>
      selectRecordedTools(catalog, { servers: ['github', 'gitlab'], naming: 'raw' }),
    ).toThrow(/would both be served as/);
  });

  it('names the known servers when asked for an unknown one', () => {
    expect(() => selectRecordedTools(catalog, { servers: ['nope'] })).toThrow(
      /Unknown recorded server 'nope'.*github/,
    );
  });
});

describe('recorded-server (a real stdio process)', () => {
  it('lists the recorded tools and answers a call with a clear no-backend error', async () => {
    const client = new Client({ name: 'test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'recorded-server', '--servers', 'github,notion'],
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(26 + 24);
      const result = await client.callTool({
        name: 'github__create_issue',
        arguments: { owner: 'o', repo: 'r', title: 't' },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(
        /recorded definition of the 'create_issue' tool of @modelcontextprotocol\/server-github.*no backend/,
      );
      const unknown = await client.callTool({ name: 'nope', arguments: {} });
      expect(unknown.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('recorded-server --list', () => {
  it('prints each recorded server with its package and tool count', async () => {
    const run = await runCli(['recorded-server', '--list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/gitlab-zereight\s+@zereight\/mcp-gitlab\s+118/);
    expect(run.stdout.trim().split('\n')).toHaveLength(2 + 23);
  });

  it('exits 2 for an unknown server, naming the known ones', async () => {
    const run = await runCli(['recorded-server', '--servers', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown recorded server 'nope'.*notion/);
  });
});
