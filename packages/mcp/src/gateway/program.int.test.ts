// tool_program served by the real gateway over Streamable HTTP, in front of real upstreams
// over stdio: server-everything, server-memory, a hanging one and one that answers garbage.
import { join } from 'node:path';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ProgramResult } from '@tool-search/code';
import type { ToolCall } from '@tool-search/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, textOf, until } from '../__fixtures__/clients.js';
import { type ServedGateway, startServedGateway } from '../__fixtures__/served-gateway.js';
import {
  everythingServer,
  fixtureServer,
  memoryServer,
  tempWorkspace,
} from '../__fixtures__/servers.js';
import type { StoredAuditRecord } from '../store/types.js';
import type { GatewayActivity, GatewayServer } from './server.js';

const TOKEN = 'program-token-0123456789abcdef';
const RECALL_TOKEN = 'recall-token-0123456789abcdef';
const PLAIN_TOKEN = 'plain-token-0123456789abcdef';

/** The program's result, from the JSON text of a tool_program answer. */
function programOf(result: CallToolResult): ProgramResult {
  return JSON.parse(textOf(result)) as ProgramResult;
}

describe('the gateway serves tool_program', () => {
  const workspace = tempWorkspace();
  const activity: GatewayActivity[] = [];
  const started: ToolCall[] = [];
  const questions: string[] = [];
  let served: ServedGateway;
  let gateway: GatewayServer;
  let client: TestClient;
  let recall: TestClient;
  let plain: TestClient;

  beforeAll(async () => {
    served = await startServedGateway(
      {
        mcpServers: {
          // The operator vouches for these servers' read-only annotations.
          everything: { ...everythingServer(), trusted: true },
          memory: { ...memoryServer(join(workspace.directory, 'memory.jsonl')), trusted: true },
          hang: fixtureServer('hang-server.mjs'),
          garbage: { ...fixtureServer('garbage-server.mjs'), trusted: true },
        },
        toolSearch: { enabled: 'on' },
        profiles: {
          recall: { enabledToolsets: ['mcp-memory'], token: RECALL_TOKEN },
          plain: { enabledToolsets: ['mcp-everything'], token: PLAIN_TOKEN, programs: false },
        },
        programs: {
          enabled: true,
          allow: ['create_entities', 'hang'],
          deny: ['delete_*'],
          limits: { maxCalls: 30, maxSourceBytes: 4096 },
        },
        approval: { require: ['create_entities'], fallback: 'deny' },
      },
      {
        onActivity: (entry) => activity.push(entry),
        hooks: [{ name: 'started', beforeCall: (call) => void started.push(call) }],
      },
    );
    gateway = served.gateway;
    // The person approves what is about Ada and denies the rest.
    client = await served.connect({
      token: TOKEN,
      elicit: (params) => {
        questions.push(params.message);
        const decision = params.message.includes('Ada') ? 'allow-once' : 'deny';
        return { action: 'accept', content: { decision } };
      },
    });
    recall = await served.connect({ token: RECALL_TOKEN });
    plain = await served.connect({ token: PLAIN_TOKEN });
  }, 60_000);

  afterAll(async () => {
    await served?.close();
    workspace.cleanup();
  });

  it('lists tool_program after the bridge tools, and not to a profile with programs off', async () => {
    expect((await client.names()).slice(-4)).toEqual([
      'tool_search',
      'tool_describe',
      'tool_call',
      'tool_program',
    ]);
    expect(await plain.names()).not.toContain('tool_program');
    const refused = await plain.call('tool_program', { source: 'return 1' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('is not available in this session');
  });

  it('fans a program out over a real upstream, with a progress notification per nested call', async () => {
    const progress: Progress[] = [];
    const result = (await client.client.callTool(
      {
        name: 'tool_program',
        arguments: {
          source: `
            const hits = await tools.search('add two numbers sum');
            const sums = await Promise.all(
              [1, 2, 3, 4, 5, 6].map((a) => tools.call('get-sum', { a, b: 10 })),
            );
            return { first: hits[0].name, sums: sums.map((sum) => sum.content[0].text) };
          `,
        },
      },
      undefined,
      { onprogress: (update) => void progress.push(update) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const program = programOf(result);
    expect(program.status).toBe('completed');
    expect(program.result).toMatchObject({ first: 'get-sum' });
    const sums = (program.result as { sums: string[] }).sums;
    expect(sums.map((text) => Number(/(\d+)\D*$/.exec(text)?.[1]))).toEqual([
      11, 12, 13, 14, 15, 16,
    ]);
    expect(result.structuredContent).toMatchObject({
      status: 'completed',
      programId: program.programId,
    });
    // One update per nested call, numbered, each naming the tool and how it went.
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(progress.map((update) => update.message))).toEqual(
      new Set(['tools.call("get-sum"): ok']),
    );
    // The activity feed and the audit trail show each call with its route and the program.
    const mine = activity.filter((entry) => entry.programId === program.programId);
    expect(mine).toHaveLength(6);
    expect(new Set(mine.map((entry) => `${entry.via} ${entry.name} ${entry.status}`))).toEqual(
      new Set(['program get-sum ok']),
    );
    const audit = await until(async () => {
      const records = (await gateway.store.readAudit({ count: 1000 }))
        .map((entry) => entry.record)
        .filter((record): record is StoredAuditRecord => record?.programId === program.programId);
      return records.length === 6 && records;
    });
    expect(new Set(audit.map((record) => `${record.via} ${record.tool}`))).toEqual(
      new Set(['program get-sum']),
    );
  });

  it('asks the person about each write of a Promise.all through elicitation; a denial throws inside', async () => {
    questions.length = 0;
    const result = await client.call('tool_program', {
      source: `
        const people = ['Ada', 'Mallory'];
        const settled = await Promise.allSettled(people.map((name) =>
          tools.create_entities({ entities: [{ name, entityType: 'person', observations: ['met in a program'] }] }),
        ));
        const graph = await tools.read_graph({});
        return {
          outcomes: settled.map((entry) => entry.status === 'fulfilled' ? 'ok' : entry.reason.status),
          reason: settled[1].reason && settled[1].reason.reason,
          names: JSON.parse(graph.content[0].text).entities.map((entity) => entity.name),
        };
      `,
    });
    const program = programOf(result);
    expect(program.error).toBeUndefined();
    expect(program.result).toMatchObject({ outcomes: ['ok', 'denied'], names: ['Ada'] });
    expect((program.result as { reason: string }).reason).toContain('denied');
    expect(questions).toHaveLength(2);
    expect(questions.some((question) => question.includes('Mallory'))).toBe(true);
    expect(program.calls.map((call) => call.status).sort()).toEqual(['denied', 'ok', 'ok']);
  });

  it("asks on the stream of the client's own tools/call, for a client that keeps no GET stream", async () => {
    const asked: string[] = [];
    const quiet = await served.connect({
      token: TOKEN,
      listen: false,
      elicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { decision: 'allow-once' } };
      },
    });
    const program = programOf(
      await quiet.call('tool_program', {
        source: `return (await tools.create_entities({ entities: [{ name: 'Ada Byron', entityType: 'person', observations: [] }] })).content[0].type`,
      }),
    );
    expect(program.error).toBeUndefined();
    expect(program.result).toBe('text');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Ada Byron');
  });

  it("refuses a tool of another profile's scope, and audits the refusal", async () => {
    const result = await recall.call('tool_program', {
      source: `
        try { await tools.call('get-sum', { a: 101, b: 202 }); return 'ran'; }
        catch (error) { return { status: error.status, reason: error.reason }; }
      `,
    });
    const program = programOf(result);
    expect(program.result).toMatchObject({ status: 'denied' });
    expect((program.result as { reason: string }).reason).toContain(
      "'get-sum' is not available in this session",
    );
    expect(started.some((call) => call.name === 'get-sum' && call.arguments['a'] === 101)).toBe(
      false,
    );
    const refusal = await until(async () =>
      (await gateway.store.readAudit({ count: 1000 }))
        .map((entry) => entry.record)
        .find(
          (record) =>
            record?.via === 'program' &&
            record.tool === 'get-sum' &&
            record.deniedBy?.kind === 'scope',
        ),
    );
    expect(refusal).toMatchObject({ decision: 'denied', profile: 'recall' });
  });

  it('lets the program policy refuse a tool that is not read-only, which a direct call may still run', async () => {
    const result = await client.call('tool_program', {
      source: `
        try { await tools.call('toggle-simulated-logging', {}); return 'ran'; }
        catch (error) { return { status: error.status, reason: error.reason }; }
      `,
    });
    const program = programOf(result);
    expect(program.result).toMatchObject({ status: 'denied' });
    expect((program.result as { reason: string }).reason).toContain(
      "programs may not call 'toggle-simulated-logging'",
    );
    const direct = await client.call('tool_call', {
      name: 'toggle-simulated-logging',
      arguments: {},
    });
    expect(direct.isError).toBeFalsy();
    // The deny list wins over read-only: a program never deletes.
    const deleted = programOf(
      await client.call('tool_program', {
        source: `try { await tools.delete_entities({ entityNames: ['Ada'] }) } catch (error) { return error.status }`,
      }),
    );
    expect(deleted.result).toBe('denied');
  });

  it('stops a program the client cancels, and cancels its call in flight upstream', async () => {
    const controller = new AbortController();
    const running = client.client.callTool(
      {
        name: 'tool_program',
        arguments: { source: "await tools.call('hang', {}); return 'done'" },
      },
      undefined,
      { signal: controller.signal },
    );
    await until(() => started.some((call) => call.name === 'hang'));
    controller.abort();
    await expect(running).rejects.toThrow();
    const cancelled = await until(() =>
      activity.find((entry) => entry.name === 'hang' && entry.via === 'program'),
    );
    expect(cancelled.status).toBe('cancelled');
    await until(
      async () =>
        textOf(await client.call('tool_call', { name: 'cancelled_count', arguments: {} })) === '1',
    );
    // The gateway's workers still run programs.
    expect(programOf(await client.call('tool_program', { source: 'return 6 * 7' })).result).toBe(
      42,
    );
  });
});

describe('tool_program in a hostile pass', () => {
  // Shares nothing with the suite above: its own gateway, so a crash shows here.
  let served: ServedGateway;
  let client: TestClient;

  beforeAll(async () => {
    served = await startServedGateway({
      mcpServers: {
        everything: { ...everythingServer(), trusted: true },
        garbage: {
          ...fixtureServer('garbage-server.mjs', { GARBAGE_HUGE_BYTES: String(2 * 1024 * 1024) }),
          trusted: true,
        },
      },
      // One program at a time, and time enough to spin: only a stopped worker frees the slot.
      programs: {
        enabled: true,
        limits: { maxSourceBytes: 4096, maxBytesIn: 1024 * 1024, cpuTimeMs: 120_000 },
        workers: { maxConcurrentPrograms: 1 },
      },
    });
    client = await served.connect({ token: TOKEN });
  }, 60_000);

  afterAll(() => served?.close());

  it('lists tool_program beside every tool when tool search is not active', async () => {
    const names = await client.names();
    expect(names).toContain('get-sum');
    expect(names).not.toContain('tool_search');
    expect(names.at(-1)).toBe('tool_program');
  });

  it('terminates a spinning program the client cancels, freeing its worker for the next', async () => {
    const controller = new AbortController();
    const spinning = client.client.callTool(
      { name: 'tool_program', arguments: { source: 'for (;;) {}' } },
      undefined,
      { signal: controller.signal, timeout: 200_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await expect(spinning).rejects.toThrow();
    // With one program at a time and two minutes of CPU, this waits for the slot unless
    // the spinning program's worker was terminated.
    const next = await client.client.callTool(
      { name: 'tool_program', arguments: { source: 'return 6 * 7' } },
      undefined,
      { timeout: 20_000 },
    );
    expect(programOf(next as CallToolResult).result).toBe(42);
  });

  it('answers a huge source and malformed arguments with typed error results', async () => {
    const huge = await client.call('tool_program', { source: `return '${'x'.repeat(10_000)}'` });
    expect(huge.isError).toBe(true);
    expect(huge._meta?.['tool-search/error']).toBe('program_source_too_large');
    for (const args of [{}, { source: 5 }, { source: '   ' }, { code: 'return 1' }]) {
      const result = await client.call('tool_program', args);
      expect(result.isError).toBe(true);
      expect(result._meta?.['tool-search/error']).toBe('invalid_argument');
    }
    const syntax = await client.call('tool_program', { source: 'return (' });
    expect(syntax._meta?.['tool-search/error']).toBe('program_syntax_error');
  });

  it('refuses tool_program and the bridge tools from inside a program, and raw malformed calls', async () => {
    const program = programOf(
      await client.call('tool_program', {
        source: `
          const outcomes = [];
          for (const [name, args] of [
            ['tool_program', { source: 'return 1' }],
            ['tool_call', { name: 'get-sum', arguments: { a: 1, b: 2 } }],
            ['get-sum', 'not an object'],
            ['get-sum', { a: 'one', b: 2 }],
            ['', {}],
          ]) {
            try { await tools.call(name, args); outcomes.push('ran'); }
            catch (error) { outcomes.push(error.status); }
          }
          return outcomes;
        `,
      }),
    );
    expect(program.result).toEqual(['denied', 'denied', 'error', 'error', 'error']);
  });

  it('turns garbage from an upstream into errors the program can catch, and keeps serving', async () => {
    const program = programOf(
      await client.call('tool_program', {
        source: `
          const outcomes = {};
          const call = async (name) => {
            try {
              const result = await tools.call(name, {});
              outcomes[name] = 'ok:' + typeof result;
            } catch (error) { outcomes[name] = error.status + ':' + (error.code || ''); }
          };
          for (const name of ['garbage_shape', 'garbage_deep', 'garbage_noise', 'garbage_error']) await call(name);
          outcomes.after = (await tools.garbage_ok({ n: 7 })).content[0].text;
          // Last: a result over the bytes the program may take in spends that budget.
          await call('garbage_huge');
          return outcomes;
        `,
      }),
    );
    expect(program.error).toBeUndefined();
    const outcomes = program.result as Record<string, string>;
    expect(outcomes['after']).toBe('ok 7');
    // A malformed result or a JSON-RPC error is the upstream failing; a structure too deep
    // to read is a failed tool; noise on the wire is skipped; a result over the bytes the
    // program may take in is refused by its budget.
    expect(outcomes).toMatchObject({
      garbage_shape: 'error:upstream_failed',
      garbage_error: 'error:upstream_failed',
      garbage_deep: 'error:tool_failed',
      garbage_noise: 'ok:object',
      garbage_huge: 'error:program_budget_spent',
    });
    expect(Object.keys(outcomes)).toHaveLength(6);
    // The gateway and its upstreams still answer.
    const sum = await client.call('get-sum', { a: 2, b: 3 });
    expect(textOf(sum)).toContain('5');
  });
});
