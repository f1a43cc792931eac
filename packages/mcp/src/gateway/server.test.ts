import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf, until } from '../__fixtures__/clients.js';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../__fixtures__/gateway.js';
import type { GatewayConfig } from '../config/parse.js';
import type { UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayActivity, type GatewayServer } from './server.js';

const _PING = { jsonrpc: '2.0', id: 2, method: 'ping' };

const _INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
};

describe('createGatewayServer', () => {
  let setup: TestGateway;
  let workspace: TestGateway['workspace'];
  let activity: GatewayActivity[];
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let admin: TestClient;
  let config: GatewayConfig;

  beforeAll(async () => {
    setup = await startTestGateway();
    ({ workspace, activity, pool, gateway, admin, config } = setup);
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  it('lists the assembled tools: visible and pinned tools plus the three bridge tools', async () => {
    const names = await admin.names();
    expect(names).toEqual(expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']));
    expect(names).toContain('read_text_file');
    expect(names).not.toContain('get-sum');
    expect(names).not.toContain('create_entities');
  });

  it('searches the deferred tools of every server', async () => {
    const answer = await admin.bridge('tool_search', { query: 'sum of two numbers' });
    const matches = answer['matches'] as { name: string; source_name: string }[];
    expect(matches[0]).toMatchObject({ name: 'get-sum', source_name: 'mcp-everything' });
    const graph = await admin.bridge('tool_search', {
      query: 'create entities in the knowledge graph',
    });
    expect((graph['matches'] as { name: string }[]).map((match) => match.name)).toContain(
      'create_entities',
    );
  });

  it('describes a deferred tool with its full schema', async () => {
    const answer = await admin.bridge('tool_describe', { name: 'get-sum' });
    expect(answer['name']).toBe('get-sum');
    expect(Object.keys((answer['parameters'] as { properties: object }).properties)).toEqual([
      'a',
      'b',
    ]);
  });

  it("forwards the upstream's progress under the client's token, through tool_call", async () => {
    const updates: { progress: number; total?: number }[] = [];
    const result = await admin.client.callTool(
      {
        name: 'tool_call',
        arguments: {
          name: 'trigger-long-running-operation',
          arguments: { duration: 0.3, steps: 3 },
        },
      },
      undefined,
      { onprogress: (progress) => updates.push(progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(textOf(result as CallToolResult)).toContain('Long running operation completed');
    // The SDK handles a progress notification a microtask after it reads it and a
    // response at once, so the last update can lose the race with the result (upstream
    // and here alike): the earlier ones arrive, in order, with their total.
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.every((update) => update.total === 3)).toBe(true);
    const steps = updates.map((update) => update.progress);
    expect(steps).toEqual([...new Set(steps)].sort());
    expect(steps[0]).toBe(1);
    // Called by its own name (a deferred tool may be), the same.
    const direct: number[] = [];
    await admin.client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (progress) => direct.push(progress.progress) },
    );
    expect(direct[0]).toBe(1);
    // Without a token, no progress is asked for and none arrives.
    const quiet = await admin.call('tool_call', {
      name: 'trigger-long-running-operation',
      arguments: { duration: 0.1, steps: 2 },
    });
    expect(quiet.isError).toBeFalsy();
  });

  it('calls a deferred tool through tool_call, and the activity feed shows the real name', async () => {
    const result = await admin.call('tool_call', { name: 'get-sum', arguments: { a: 2, b: 3 } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('5');
    expect(activity.at(-1)).toMatchObject({
      kind: 'call',
      name: 'get-sum',
      arguments: { a: 2, b: 3 },
      via: 'bridge',
      status: 'ok',
    });
  });

  it('calls a deferred tool directly by its name, and a visible tool as usual', async () => {
    const sum = await admin.call('get-sum', { a: 20, b: 22 });
    expect(textOf(sum)).toContain('42');
    expect(activity.at(-1)).toMatchObject({ name: 'get-sum', via: 'direct', status: 'ok' });
    const read = await admin.call('read_text_file', {
      path: join(workspace.directory, 'notes.txt'),
    });
    expect(textOf(read)).toContain('hello from the workspace');
  });

  it('runs a tool_call of a visible tool and tells the model, in the result, to call it directly', async () => {
    const path = join(workspace.directory, 'notes.txt');
    const result = await admin.call('tool_call', {
      name: 'read_text_file',
      arguments: { path },
    });
    expect(result.isError).not.toBe(true);
    const texts = result.content.map((part) => (part.type === 'text' ? part.text : ''));
    expect(texts[0]).toContain('hello from the workspace');
    expect(texts.at(-1)).toBe(
      "'read_text_file' is already in your tools list: it ran, but call it directly by its name next time, not through tool_call.",
    );
    const batch = await admin.call('tool_call', {
      calls: [{ name: 'read_text_file', arguments: { path } }],
    });
    expect(textOf(batch)).toContain('call it directly by its name next time');
    const direct = await admin.call('read_text_file', { path });
    expect(textOf(direct)).not.toContain('call it directly');
  });

  it('refuses a name that is not in the session', async () => {
    const result = await admin.call('no_such_tool', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("'no_such_tool' is not available in this session");
  });

  it('denies a call that a guardrail forbids, before it reaches the server', async () => {
    const result = await admin.call('tool_call', {
      name: 'delete_entities',
      arguments: { entityNames: ['Ada'] },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Denied by guardrail 'tool-policy'");
    expect(activity.at(-1)).toMatchObject({ name: 'delete_entities', status: 'denied' });
  });

  it('does not invoke a deferred call whose arguments do not match the tool schema', async () => {
    const result = await admin.call('tool_call', {
      name: 'get-sum',
      arguments: { a: 'two', b: 3 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("'get-sum' was not invoked");
    expect(textOf(result)).toContain('arguments.a (type): must be number');
  });

  it('repairs a number sent as a string before calling the server', async () => {
    const result = await admin.call('tool_call', {
      name: 'get-sum',
      arguments: { a: '2', b: 3 },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('5');
  });

  it('denies a call that needs approval when the client cannot be asked', async () => {
    const path = join(workspace.directory, 'denied.txt');
    const result = await admin.call('tool_call', {
      name: 'write_file',
      arguments: { path, content: 'nope' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs approval, and this client cannot be asked');
    expect(existsSync(path)).toBe(false);
  });

  it('asks a client that supports elicitation, and follows its answer', async () => {
    const asked: ElicitRequest['params'][] = [];
    let answer: 'allow-once' | 'allow-session' | 'decline' = 'allow-once';
    const person = await connectClient(gateway, {
      token: ADMIN_TOKEN,
      elicit: (params) => {
        asked.push(params);
        return answer === 'decline'
          ? { action: 'decline' }
          : { action: 'accept', content: { decision: answer } };
      },
    });
    try {
      const approved = join(workspace.directory, 'approved.txt');
      const result = await person.call('tool_call', {
        name: 'write_file',
        arguments: { path: approved, content: 'yes' },
      });
      expect(result.isError).toBeFalsy();
      expect(readFileSync(approved, 'utf8')).toBe('yes');
      expect(asked[0]?.message).toContain("'write_file'");

      answer = 'decline';
      const declined = join(workspace.directory, 'declined.txt');
      const refused = await person.call('write_file', { path: declined, content: 'no' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('declined');
      expect(existsSync(declined)).toBe(false);

      // 'allow-session' is remembered for this session only.
      answer = 'allow-session';
      const first = join(workspace.directory, 'session-1.txt');
      const second = join(workspace.directory, 'session-2.txt');
      await person.call('write_file', { path: first, content: '1' });
      const askedBefore = asked.length;
      await person.call('write_file', { path: second, content: '2' });
      expect(asked.length).toBe(askedBefore);
      expect(readFileSync(second, 'utf8')).toBe('2');
      const elsewhere = join(workspace.directory, 'other-session.txt');
      expect((await admin.call('write_file', { path: elsewhere, content: '3' })).isError).toBe(
        true,
      );
      expect(existsSync(elsewhere)).toBe(false);
    } finally {
      await person.close();
    }
  });

  it('denies when the person does not answer in time', async () => {
    const strict = createGatewayServer({
      pool,
      config: { ...config, profiles: {}, approval: { ...config.approval, timeoutMs: 300 } },
    });
    const silent = await connectClient(strict, { elicit: () => new Promise(() => {}) });
    try {
      const path = join(workspace.directory, 'unanswered.txt');
      const result = await silent.call('write_file', { path, content: 'late' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("Denied by approval 'approval'");
      expect(existsSync(path)).toBe(false);
    } finally {
      await silent.close();
      await strict.close();
    }
  });

  it('tells the client when what it sees changes upstream', async () => {
    const before = admin.listChanged();
    await admin.call('tool_call', { name: 'add_tool', arguments: { name: 'gateway_fresh_tool' } });
    await until(() => admin.listChanged() > before);
    const answer = await admin.bridge('tool_search', { query: 'gateway_fresh_tool' });
    expect((answer['matches'] as { name: string }[])[0]?.name).toBe('gateway_fresh_tool');
    const ran = await admin.call('tool_call', { name: 'gateway_fresh_tool', arguments: {} });
    expect(textOf(ran)).toBe('gateway_fresh_tool ran');
    await admin.call('tool_call', { name: 'remove_tools', arguments: {} });
    await until(async () => {
      const search = await admin.bridge('tool_search', { query: 'gateway_fresh_tool' });
      return !(search['matches'] as { name: string }[]).some(
        (match) => match.name === 'gateway_fresh_tool',
      );
    });
  });

  it('gives a clear result for an upstream that hangs, crashes, or sent bad definitions', async () => {
    const quick = createGatewayServer({
      pool,
      config: { ...config, profiles: {} },
      callTimeoutMs: 500,
    });
    const impatient = await connectClient(quick);
    try {
      const hung = await impatient.call('hang', {});
      expect(hung.isError).toBe(true);
      expect(textOf(hung)).toContain(
        "Server 'hang' did not answer the call of 'hang' within 500 ms",
      );
    } finally {
      await impatient.close();
      await quick.close();
    }

    const crashed = await admin.call('tool_call', { name: 'crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toContain("Server 'crashy' closed the connection during the call");

    const good = await admin.call('tool_call', { name: 'good_tool', arguments: {} });
    expect(textOf(good)).toBe('good_tool ran');

    // The server that never started is simply absent; the rest still serve.
    expect(pool.status().find((server) => server.name === 'missing')?.state).toBe('failed');
    for (const session of gateway.sessions()) {
      expect(session.tools().some((tool) => tool.toolset === 'mcp-missing')).toBe(false);
    }
    expect(textOf(await admin.call('get-sum', { a: 1, b: 1 }))).toContain('2');
  });
});
