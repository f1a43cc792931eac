import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '@tool-search/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import {
  everythingBin,
  everythingServer,
  filesystemServer,
  fixtureServer,
  memoryServer,
  tempWorkspace,
} from '../__fixtures__/servers.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('createUpstreamPool', () => {
  const workspace = tempWorkspace();
  let pool: UpstreamPool;
  const changes: ToolDefinition[][] = [];

  beforeAll(async () => {
    pool = createUpstreamPool(
      {
        mcpServers: {
          everything: everythingServer(),
          filesystem: filesystemServer(workspace.directory),
          memory: memoryServer(join(workspace.directory, 'memory.jsonl')),
          crashy: fixtureServer('crash-server.mjs'),
          hang: fixtureServer('hang-server.mjs'),
          malformed: fixtureServer('malformed-server.mjs'),
          // Trusted: its own _meta["anthropic/alwaysLoad"] pin counts.
          changing: {
            ...fixtureServer('changing-server.mjs', { FIXTURE_PAGE_SIZE: '2' }),
            trusted: true,
          },
          missing: { command: join(workspace.directory, 'no-such-command') },
          exits: fixtureServer('exit-server.mjs'),
          off: { command: 'never-run', disabled: true },
        },
        pins: { servers: ['memory'], tools: ['read_text_file', 'cancelled_*'] },
      },
      { connectTimeoutMs: 20_000, reconnect: { initialDelayMs: 100 } },
    );
    pool.onToolsChanged((tools) => changes.push(tools));
    await pool.start();
  }, 30_000);

  afterAll(async () => {
    await pool.close();
    workspace.cleanup();
  });

  const status = (name: string) => pool.status().find((entry) => entry.name === name)!;
  const tool = (name: string) => pool.tools().find((entry) => entry.name === name);

  it('connects every good server and reports the ones that fail, in config order', () => {
    expect(pool.status().map((entry) => [entry.name, entry.state])).toEqual([
      ['everything', 'ready'],
      ['filesystem', 'ready'],
      ['memory', 'ready'],
      ['crashy', 'ready'],
      ['hang', 'ready'],
      ['malformed', 'ready'],
      ['changing', 'ready'],
      ['missing', 'failed'],
      ['exits', 'failed'],
      ['off', 'disabled'],
    ]);
    expect(status('filesystem')).toMatchObject({ transport: 'stdio', toolCount: 14 });
    expect(status('filesystem').connectMs).toBeGreaterThan(0);
    expect(status('missing').error).toMatch(/command '.*no-such-command' was not found/);
    expect(status('exits').error).toContain('missing API key, giving up');
    expect(status('missing').toolCount).toBe(0);
  });

  it('converts tools to mcp definitions in the toolset of their server', () => {
    expect(tool('read_text_file')).toMatchObject({ source: 'mcp', toolset: 'mcp-filesystem' });
    expect(tool('create_entities')).toMatchObject({ source: 'mcp', toolset: 'mcp-memory' });
    expect(tool('get-sum')?.inputSchema.type).toBe('object');
  });

  it('follows pagination', () => {
    expect(status('changing').toolCount).toBe(4);
    expect(tool('add_tool')).toBeDefined();
    expect(tool('pinned_status')).toBeDefined();
  });

  it('skips malformed definitions, says why, and serves the good ones', () => {
    expect(tool('good_tool')).toMatchObject({ toolset: 'mcp-malformed' });
    const rejected = status('malformed').rejectedTools;
    expect(rejected).toHaveLength(6);
    expect(rejected.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'bad name with spaces',
        'array_schema',
        "it's 'quoted'",
        'good_tool',
        '<unnamed>',
      ]),
    );
    expect(rejected.find((entry) => entry.name === 'array_schema')?.error).toContain('inputSchema');
  });

  it('prefixes a name that several servers use with the server name, on each of them', async () => {
    const names = pool.tools().map((entry) => entry.name);
    expect(names).not.toContain('echo');
    expect(names).toEqual(
      expect.arrayContaining(['everything_echo', 'crashy_echo', 'changing_echo']),
    );
    expect(pool.lookup('crashy_echo')).toMatchObject({ server: 'crashy', upstreamName: 'echo' });
    const result = await pool.callTool('crashy_echo', { message: 'hi' });
    expect(textOf(result)).toBe('crash-fixture echo: hi');
    expect(textOf(await pool.callTool('changing_echo', { message: 'yo' }))).toBe(
      'changing-fixture echo: yo',
    );
  });

  it('pins by server, by tool pattern and by _meta["anthropic/alwaysLoad"]', () => {
    expect(tool('read_graph')?.alwaysLoad).toBe(true);
    expect(tool('read_text_file')?.alwaysLoad).toBe(true);
    expect(tool('cancelled_count')?.alwaysLoad).toBe(true);
    expect(tool('pinned_status')?.alwaysLoad).toBe(true);
    expect(tool('write_file')?.alwaysLoad).toBeUndefined();
  });

  it('calls real servers', async () => {
    const read = await pool.callTool('read_text_file', {
      path: join(workspace.directory, 'notes.txt'),
    });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('hello from the workspace');
    const sum = await pool.callTool('get-sum', { a: 2, b: 3 });
    expect(textOf(sum)).toContain('5');
    await pool.callTool('create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }],
    });
    expect(textOf(await pool.callTool('read_graph', {}))).toContain('Ada');
  });

  it('answers an unknown tool with a clear result', async () => {
    const result = await pool.callTool('no_such_tool', {});
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toBe('unknown_tool');
  });

  it('times a call out, cancels it upstream and says so', async () => {
    const result = await pool.callTool('hang', {}, { timeoutMs: 300 });
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toBe('upstream_timeout');
    expect(textOf(result)).toContain(
      "Server 'hang' did not answer the call of 'hang' within 300 ms",
    );
    // The upstream was told: its handler saw the cancellation.
    const cancelled = await until(async () => {
      const count = Number(textOf(await pool.callTool('cancelled_count', {})));
      return count >= 1 ? count : undefined;
    });
    expect(cancelled).toBeGreaterThanOrEqual(1);
  });

  it('honours cancellation', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await pool.callTool('hang', {}, { signal: controller.signal });
    expect(codeOf(result)).toBe('aborted');
    const early = await pool.callTool('hang', {}, { signal: AbortSignal.abort() });
    expect(codeOf(early)).toBe('aborted');
  });

  it('follows notifications/tools/list_changed', async () => {
    const before = changes.length;
    await pool.callTool('add_tool', { name: 'fresh_tool' });
    await until(() => tool('fresh_tool'));
    expect(tool('fresh_tool')).toMatchObject({ toolset: 'mcp-changing' });
    expect(changes.length).toBe(before + 1);
    expect(textOf(await pool.callTool('fresh_tool', {}))).toBe('fresh_tool ran');
    await pool.callTool('remove_tools', {});
    await until(() => !tool('fresh_tool'));
  });

  it('fails a call clearly when its server crashes, fails fast meanwhile, and reconnects', async () => {
    const crashed = await pool.callTool('crash', {});
    expect(crashed.isError).toBe(true);
    expect(codeOf(crashed)).toBe('upstream_failed');
    expect(textOf(crashed)).toContain(
      "Server 'crashy' closed the connection during the call of 'crash'",
    );

    const meanwhile = await pool.callTool('crashy_echo', { message: 'anyone?' });
    expect(codeOf(meanwhile)).toBe('upstream_unavailable');
    expect(textOf(meanwhile)).toMatch(/Server 'crashy' is unavailable \(it is reconnecting/);
    expect(tool('crashy_echo')).toBeDefined();

    await until(() => status('crashy').state === 'ready');
    expect(textOf(await pool.callTool('crashy_echo', { message: 'back' }))).toBe(
      'crash-fixture echo: back',
    );
    // The other servers never noticed.
    expect(textOf(await pool.callTool('get-sum', { a: 1, b: 1 }))).toContain('2');
  });
});

describe('createUpstreamPool connect timeout', () => {
  it('gives up on a server that does not answer in time and keeps serving the rest', async () => {
    const pool = createUpstreamPool(
      {
        mcpServers: {
          silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
          crashy: fixtureServer('crash-server.mjs'),
        },
      },
      // Long enough for the live server to start on a loaded CI machine: the silent
      // one takes all of it to be given up on.
      { connectTimeoutMs: 15_000 },
    );
    const progress: string[] = [];
    pool.onProgress((event) => progress.push(`${event.server}:${event.kind}`));
    const statuses = await pool.start();
    expect(statuses.map((entry) => entry.state)).toEqual(['failed', 'ready']);
    expect(statuses[0]?.error).toContain('within 15000 ms');
    expect(progress).toEqual(
      expect.arrayContaining(['silent:connecting', 'silent:failed', 'crashy:ready']),
    );
    expect(pool.tools().map((entry) => entry.name)).toEqual(['echo', 'crash']);
    await pool.close();
  }, 60_000);
});

describe('createUpstreamPool close', () => {
  it('stops a connect in progress instead of waiting for its timeout', async () => {
    const pool = createUpstreamPool(
      {
        mcpServers: {
          silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
        },
      },
      { connectTimeoutMs: 600_000 },
    );
    const starting = pool.start();
    await until(() => pool.status()[0]?.state === 'connecting');
    await pool.close();
    const statuses = await starting;
    expect(statuses[0]?.state).toBe('closed');
  }, 30_000);
});

describe('createUpstreamPool over HTTP', () => {
  const children: ChildProcess[] = [];
  const serve = async (mode: 'streamableHttp' | 'sse') => {
    const port = await freePort();
    const child = spawn(process.execPath, [everythingBin(), mode], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        if (/listening|running/i.test(chunk.toString())) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server-everything exited ${code}`)));
    });
    return port;
  };

  afterAll(() => {
    for (const child of children) child.kill();
  });

  it('connects over Streamable HTTP, and falls back to SSE for an old server', async () => {
    const [httpPort, ssePort] = await Promise.all([serve('streamableHttp'), serve('sse')]);
    const pool = createUpstreamPool(
      {
        mcpServers: {
          modern: { url: `http://127.0.0.1:${httpPort}/mcp` },
          old: { url: `http://127.0.0.1:${ssePort}/sse` },
        },
      },
      { connectTimeoutMs: 10_000 },
    );
    const statuses = await pool.start();
    expect(statuses.map((entry) => [entry.name, entry.state, entry.transport])).toEqual([
      ['modern', 'ready', 'streamable-http'],
      ['old', 'ready', 'sse'],
    ]);
    expect(pool.tools().map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['modern_echo', 'old_echo', 'modern_get-sum']),
    );
    const result = await pool.callTool('old_get-sum', { a: 20, b: 22 });
    expect(textOf(result)).toContain('42');
    await pool.close();
  }, 30_000);
});
