import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE_ENV, GATEWAY_CONFIG, WORKSPACE } from './__fixtures__/paths.js';
import { childPids, listeningUrl, stopProcess, waitForExit } from './__fixtures__/processes.js';

/**
 * Waits until the gateway serves every upstream: it listens before they are ready, and
 * their tools arrive by list_changed. All 71 deferred tools behind tool_search means all.
 */
async function untilAllUpstreams(client: Client): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const result = await client
      .callTool({ name: 'tool_search', arguments: { query: 'file', limit: 1 } })
      .catch(() => undefined);
    if (result && !result.isError && JSON.parse(text(result)).total_available === 71) return;
    if (Date.now() > deadline) throw new Error('the upstreams did not all arrive in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function text(result: unknown): string {
  return (result as CallToolResult).content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

describe('serve --transport stdio (driven by the MCP SDK client)', () => {
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--config', GATEWAY_CONFIG, '--context-window', '200000'],
      env: { ...(process.env as Record<string, string>), ...FIXTURE_ENV },
      stderr: 'pipe',
    });
    client = new Client({ name: 'serve-test', version: '0.0.0' });
    await client.connect(transport);
    await untilAllUpstreams(client);
  }, 40_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists the pinned tool and the three bridge tools instead of 72 schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['list_allowed_directories', 'tool_call', 'tool_describe', 'tool_search'].sort(),
    );
  });

  it('answers tool_search with ranked matches from every server', async () => {
    const result = await client.callTool({
      name: 'tool_search',
      arguments: { query: 'read a text file', limit: 3 },
    });
    expect(result.isError).not.toBe(true);
    const answer = JSON.parse(text(result)) as {
      total_available: number;
      matches: { name: string }[];
    };
    expect(answer.total_available).toBe(71);
    expect(answer.matches.length).toBeLessThanOrEqual(3);
    expect(answer.matches.map((match) => match.name)).toContain('read_text_file');
  });

  it('answers tool_describe with the full schema', async () => {
    const result = await client.callTool({
      name: 'tool_describe',
      arguments: { name: 'create_issue' },
    });
    const answer = JSON.parse(text(result)) as {
      name: string;
      parameters: { required?: string[] };
    };
    expect(answer.name).toBe('create_issue');
    expect(answer.parameters.required).toEqual(expect.arrayContaining(['owner', 'repo', 'title']));
  });

  it('calls a real upstream tool through tool_call, and directly by its name', async () => {
    const viaBridge = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'read_text_file', arguments: { path: `${WORKSPACE}/notes.md` } },
    });
    expect(viaBridge.isError).not.toBe(true);
    expect(text(viaBridge)).toContain('The gateway read this file through tool_call.');
    const direct = await client.callTool({
      name: 'read_text_file',
      arguments: { path: `${WORKSPACE}/notes.md` },
    });
    expect(text(direct)).toContain('The gateway read this file through tool_call.');
  });

  it('stops a destructive call for approval (no elicitation: the policy denies)', async () => {
    const result = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'write_file', arguments: { path: `${WORKSPACE}/notes.md`, content: 'x' } },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/approv/i);
  });

  it('denies a call the guardrail forbids', async () => {
    const result = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'slack_post_message', arguments: { channel_id: 'C1', text: 'hi' } },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/slack_post_message/);
    expect(text(result)).toMatch(/denied|not allowed|guardrail/i);
  });

  it('exits with its upstream processes when the client disconnects', async () => {
    const pid = transport.pid;
    expect(pid).toBeTypeOf('number');
    const children = childPids(pid!);
    await client.close();
    await waitForExit([pid!, ...children]);
  });
});

describe('serve --transport http', () => {
  const INSPECTOR = 'http://localhost:6274';
  let child: ChildProcess;
  let url: URL;
  const token = 'test-token-0123456789abcdef';

  beforeAll(async () => {
    child = spawn(
      process.execPath,
      [
        CLI,
        'serve',
        '--config',
        GATEWAY_CONFIG,
        '--transport',
        'http',
        '--port',
        '0',
        '--token',
        token,
        '--allow-origin',
        INSPECTOR,
        '--idle-timeout',
        '1',
      ],
      { env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    url = await listeningUrl(child);
  });

  afterAll(() => stopProcess(child));

  it('listens on 127.0.0.1 and serves a client that sends the token', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    const client = new Client({ name: 'http-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    await untilAllUpstreams(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('tool_search');
    await client.close();
  }, 40_000);

  it('refuses a request from a foreign Origin, even with the token', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        origin: 'http://attacker.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(403);
  });

  it('answers the CORS preflight of an --allow-origin page, and its requests', async () => {
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: INSPECTOR,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const unauthorized = await fetch(url, {
      method: 'POST',
      headers: { origin: INSPECTOR, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
  });

  it('closes a session left without DELETE after --idle-timeout; its id then gets 404', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'gone', version: '0.0.0' },
      },
    });
    expect(initialized.status).toBe(200);
    await initialized.text();
    const session = {
      'mcp-session-id': initialized.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
    };
    // Every probe is a request and restarts the clock: probe less often than it runs out.
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (status !== 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const probe = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session);
      status = probe.status;
      await probe.text();
    }
    expect(status).toBe(404);
  }, 40_000);

  it('refuses a request without the token', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });
});
