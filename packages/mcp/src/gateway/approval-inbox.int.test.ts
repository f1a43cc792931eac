import type { ApprovalAnswer, ApprovalRequest } from '@tool-search/hooks';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../__fixtures__/stores.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createRedisStore } from '../store/redis-store.js';
import type { GatewayStore, PendingApproval } from '../store/types.js';
import { answerPendingApproval, createApprovalInbox } from './approval-inbox.js';

let redis: TestRedis;
const opened: GatewayStore[] = [];

beforeAll(async () => {
  redis = await startRedis({ appendOnly: false });
}, 30_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis?.dispose();
});

async function redisStore(prefix: string): Promise<GatewayStore> {
  const store = createRedisStore({ url: redis.url, prefix });
  opened.push(store);
  return untilReady(store);
}

const kinds: [string, () => Promise<[GatewayStore, GatewayStore]>][] = [
  [
    'memory',
    async () => {
      const store = createMemoryStore();
      return [store, store];
    },
  ],
  [
    'redis (two replicas)',
    async () => {
      const prefix = `inbox${Math.random()}:`;
      return [await redisStore(prefix), await redisStore(prefix)];
    },
  ],
];

function request(
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): ApprovalRequest {
  return {
    call: { name, arguments: args },
    tool: {
      name,
      inputSchema: { type: 'object' },
      toolset: 'mcp-files',
      origin: { server: 'files', name },
      annotations: { destructiveHint: true },
    },
    signal: signal ?? new AbortController().signal,
  };
}

/** Waits until the inbox lists `count` calls. */
async function listed(store: GatewayStore, count: number): Promise<PendingApproval[]> {
  for (;;) {
    const pending = await store.listPendingApprovals();
    if (pending.length >= count) return pending;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const decisionOf = (answer: unknown) =>
  typeof answer === 'string' ? answer : (answer as ApprovalAnswer).decision;

describe.each(kinds)('createApprovalInbox on the %s store', (_kind, open) => {
  it('lists a waiting call with its whole arguments and hands each answer to exactly its call', async () => {
    const [asking, answering] = await open();
    const inbox = createApprovalInbox(asking, { timeoutMs: 30_000 });
    const adapter = inbox.adapter({ id: 'session-1', profile: 'agent' });
    const first = adapter.request(request('write_file', { path: 'a.txt', content: '<b>x</b>' }));
    const second = adapter.request(request('write_file', { path: 'b.txt' }));
    const pending = await listed(answering, 2);
    // Asked in the same millisecond, they may be listed in either order.
    expect(pending.find((item) => item.arguments['path'] === 'a.txt')).toMatchObject({
      sessionId: 'session-1',
      profile: 'agent',
      tool: 'write_file',
      origin: { server: 'files', name: 'write_file' },
      toolset: 'mcp-files',
      arguments: { path: 'a.txt', content: '<b>x</b>' },
      destructive: true,
    });
    const secondId = pending.find((item) => item.arguments['path'] === 'b.txt')!.id;
    expect(await answerPendingApproval(answering, secondId, 'deny')).toBe('delivered');
    const denied = (await second) as ApprovalAnswer;
    expect(denied.decision).toBe('deny');
    expect(denied.reason).toBe("An operator denied the call of 'write_file' in the console.");
    // The other call still waits, and a second answer to the first finds nothing.
    expect((await answering.listPendingApprovals()).map((item) => item.arguments['path'])).toEqual([
      'a.txt',
    ]);
    expect(await answerPendingApproval(answering, secondId, 'allow-once')).toBe('unknown');
    const firstId = (await answering.listPendingApprovals())[0]!.id;
    expect(await answerPendingApproval(answering, firstId, 'allow-session')).toBe('delivered');
    expect(decisionOf(await first)).toBe('allow-session');
    expect(await answering.listPendingApprovals()).toEqual([]);
    await inbox.close();
  });

  it('denies a call nobody answers in time, and one whose caller gave up, and lists neither after', async () => {
    const [asking, answering] = await open();
    const inbox = createApprovalInbox(asking, { timeoutMs: 200 });
    const adapter = inbox.adapter({ id: 'session-2' });
    const late = (await adapter.request(request('delete_file', { path: 'x' }))) as ApprovalAnswer;
    expect(late.decision).toBe('deny');
    expect(late.reason).toContain('Nobody answered in the console');
    const controller = new AbortController();
    const cancelled = adapter.request(request('delete_file', { path: 'y' }, controller.signal));
    const [item] = await listed(answering, 1);
    controller.abort();
    expect(((await cancelled) as ApprovalAnswer).decision).toBe('deny');
    expect(await answering.listPendingApprovals()).toEqual([]);
    expect(await answerPendingApproval(answering, item!.id, 'allow-once')).toBe('unknown');
    await inbox.close();
  });
});

describe('createApprovalInbox when the store is down', () => {
  it('denies, naming why, instead of waiting', async () => {
    const store = await redisStore(`down${Math.random()}:`);
    await store.close();
    const inbox = createApprovalInbox(store, { timeoutMs: 30_000 });
    const answer = (await inbox
      .adapter({ id: 'session-3' })
      .request(request('write_file', { path: 'a' }))) as ApprovalAnswer;
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('could not be put to the console');
  });
});
