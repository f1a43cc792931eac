// The kit's checks of what a store keeps in order: the events of a session's streams
// (for `Last-Event-ID`) and the audit trail.

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import type { AuditEntry } from '../types.js';
import { type StoreHarness, sampleAudit, sampleSession, sleep } from './harness.js';

const note = (method: string, params: Record<string, unknown> = {}): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method,
  params,
});

const tools = (entries: readonly AuditEntry[]) => entries.map((entry) => entry.record?.tool);

/** Registers the checks of stream events and the audit trail. */
export function streamChecks(kit: StoreHarness): void {
  it("replays the events after an id of that id's stream only, oldest first, as they were stored", async () => {
    const store = await kit.open();
    await store.putSession(sampleSession('s1'), 60_000);
    const rich = note('notifications/message', { text: 'é 漢字 💥', nested: { list: [1, null] } });
    const first = await store.appendEvent('s1', 'stream-a', note('one'));
    await store.appendEvent('s1', 'stream-b', note('other'));
    const second = await store.appendEvent('s1', 'stream-a', rich);
    const third = await store.appendEvent('s1', 'stream-a', {
      jsonrpc: '2.0',
      id: 7,
      result: { content: [] },
    });
    expect(new Set([first, second, third]).size).toBe(3);
    expect(await store.eventsAfter('s1', first)).toEqual({
      streamId: 'stream-a',
      events: [
        { id: second, message: rich },
        { id: third, message: { jsonrpc: '2.0', id: 7, result: { content: [] } } },
      ],
    });
    expect(await store.eventsAfter('s1', third)).toEqual({ streamId: 'stream-a', events: [] });
  });

  it('knows no event id that is unknown, malformed or of another session', async () => {
    const store = await kit.open();
    await store.putSession(sampleSession('s1'), 60_000);
    await store.putSession(sampleSession('s2'), 60_000);
    // Ids are unique within a session (a Redis stream's are per stream): another
    // session's id is unknown here as long as no event of this session has it.
    await store.appendEvent('s2', 'stream', note('two'));
    await sleep(5);
    const mine = await store.appendEvent('s1', 'stream', note('one'));
    expect(await store.eventsAfter('s2', mine)).toBeUndefined();
    for (const id of ['no-such-event', '', '0', '0-0', '99999999999999-0', `${mine}x`]) {
      expect(await store.eventsAfter('s1', id), `event id ${JSON.stringify(id)}`).toBeUndefined();
    }
    expect(await store.eventsAfter('never-opened', mine)).toBeUndefined();
  });

  it('gives each of many events appended at once its own id, and replays them all', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.putSession(sampleSession('s1'), 60_000);
    const start = await store.appendEvent('s1', 'stream', note('start'));
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 === 0 ? store : other).appendEvent('s1', 'stream', note(`m${index}`)),
      ),
    );
    expect(new Set(ids).size).toBe(30);
    const replayed = await other.eventsAfter('s1', start);
    expect(new Set(replayed?.events.map((event) => event.id))).toEqual(new Set(ids));
    expect(
      new Set(replayed?.events.map((event) => (event.message as { method: string }).method)),
    ).toEqual(new Set(Array.from({ length: 30 }, (_, index) => `m${index}`)));
    // The order of the ids is the order of the replay.
    const sorted = replayed!.events.map((event) => event.id);
    const from = await store.eventsAfter('s1', sorted[14]!);
    expect(from?.events.map((event) => event.id)).toEqual(sorted.slice(15));
  });

  it('hands out copies of events: changing a replayed message changes nothing stored', async () => {
    const store = await kit.open();
    await store.putSession(sampleSession('s1'), 60_000);
    const params = { value: 1 };
    const message: JSONRPCMessage = { jsonrpc: '2.0', method: 'one', params };
    const start = await store.appendEvent('s1', 'stream', note('start'));
    await store.appendEvent('s1', 'stream', message);
    params.value = 2;
    const read = await store.eventsAfter('s1', start);
    expect(read?.events[0]?.message).toEqual(note('one', { value: 1 }));
    (read!.events[0]!.message as unknown as { params: { value: number } }).params.value = 3;
    expect((await store.eventsAfter('s1', start))?.events[0]?.message).toEqual(
      note('one', { value: 1 }),
    );
  });

  it('reads the last count audit records, or the count oldest after an id, oldest first', async () => {
    const store = await kit.open();
    expect(await store.readAudit({ count: 10 })).toEqual([]);
    for (const tool of ['r1', 'r2', 'r3', 'r4', 'r5']) await store.appendAudit(sampleAudit(tool));
    expect(tools(await store.readAudit({ count: 3 }))).toEqual(['r3', 'r4', 'r5']);
    const all = await store.readAudit({ count: 10 });
    expect(tools(all)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(5);
    expect(tools(await store.readAudit({ after: all[0]!.id, count: 2 }))).toEqual(['r2', 'r3']);
    expect(await store.readAudit({ after: all[4]!.id, count: 10 })).toEqual([]);
    expect(all[2]).toEqual({ id: all[2]!.id, record: sampleAudit('r3') });
  });

  it('hands out copies of audit records: changing one read or appended changes nothing stored', async () => {
    const store = await kit.open();
    const record = sampleAudit('r1');
    await store.appendAudit(record);
    record.tool = 'changed';
    const [read] = await store.readAudit({ count: 1 });
    expect(read?.record).toEqual(sampleAudit('r1'));
    read!.record!.tool = 'changed again';
    expect((await store.readAudit({ count: 1 }))[0]?.record).toEqual(sampleAudit('r1'));
  });

  it('hands a follower the records appended after it, and nothing when none comes within blockMs', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.appendAudit(sampleAudit('one'));
    const [last] = await store.readAudit({ count: 1 });
    expect(await store.readAudit({ after: last!.id, count: 10, blockMs: 200 })).toEqual([]);
    const following = store.readAudit({ after: last!.id, count: 10, blockMs: 5_000 });
    await sleep(100);
    await other.appendAudit(sampleAudit('two'));
    expect(tools(await following)).toEqual(['two']);
  });

  it('answers an id it cannot read with no records, never with an error', async () => {
    const store = await kit.open();
    await store.appendAudit(sampleAudit('one'));
    for (const after of ['garbage', '1-2-3', '-', '(1']) {
      expect(await store.readAudit({ after, count: 10 }), `after ${after}`).toEqual([]);
      expect(await store.readAudit({ after, count: 10, blockMs: 50 }), `after ${after}`).toEqual(
        [],
      );
    }
  });

  it('keeps every one of many records appended at once, readable page by page in one order', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 === 0 ? store : other).appendAudit(sampleAudit(`t${index}`)),
      ),
    );
    const all = await other.readAudit({ count: 100 });
    expect(new Set(tools(all))).toEqual(new Set(Array.from({ length: 40 }, (_, i) => `t${i}`)));
    const paged: AuditEntry[] = [];
    let after = all[0]!.id;
    paged.push(all[0]!);
    for (;;) {
      const page = await store.readAudit({ after, count: 7 });
      if (page.length === 0) break;
      paged.push(...page);
      after = page.at(-1)!.id;
    }
    expect(paged).toEqual(all);
  });
}
