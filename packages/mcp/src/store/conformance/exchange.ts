// The kit's checks of what replicas hand each other: the answers to open questions, the
// calls waiting in the approvals inbox and the accepted tool fingerprints.

import { expect, it } from 'vitest';
import type { RoutedMessage } from '../types.js';
import { eventually, type StoreHarness, samplePending, sampleSession, sleep } from './harness.js';

const answer = (id: string | number, sessionId = 's'): RoutedMessage => ({
  sessionId,
  message: { jsonrpc: '2.0', id, result: { action: 'accept', content: { decision: String(id) } } },
});

/** Registers the checks of routed answers, the approvals inbox and the fingerprints. */
export function exchangeChecks(kit: StoreHarness): void {
  it('hands an answer to the one replica that asked its question, once, and refuses any other', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.putSession(sampleSession('s'), 60_000);
    await store.putSession(sampleSession('t'), 60_000);
    const heard: Record<string, RoutedMessage[]> = { one: [], two: [] };
    const stops = [
      await store.subscribe('one', (routed) => heard['one']!.push(routed)),
      await other.subscribe('two', (routed) => heard['two']!.push(routed)),
    ];
    await store.openQuestion({ sessionId: 's', questionId: 'q-1', replica: 'one' });
    await other.openQuestion({ sessionId: 's', questionId: 'q-2', replica: 'two' });
    // Another session, a number id, an id never asked: nothing is delivered.
    expect(await store.routeAnswer(answer('q-1', 't'))).toBe('unknown');
    expect(await store.routeAnswer(answer(0))).toBe('unknown');
    expect(await store.routeAnswer(answer('q-3'))).toBe('unknown');
    expect(
      await store.routeAnswer({ sessionId: 's', message: { jsonrpc: '2.0', method: 'x' } }),
    ).toBe('unknown');
    expect(await store.routeAnswer(answer('q-2'))).toBe('delivered');
    const failed: RoutedMessage = {
      sessionId: 's',
      message: { jsonrpc: '2.0', id: 'q-1', error: { code: -32600, message: 'declined' } },
    };
    expect(await other.routeAnswer(failed)).toBe('delivered');
    expect(await store.routeAnswer(answer('q-1'))).toBe('unknown');
    await eventually(() => heard['one']!.length + heard['two']!.length >= 2);
    await sleep(50);
    expect(heard).toEqual({ one: [failed], two: [answer('q-2')] });
    for (const stop of stops) await stop();
  });

  it('forgets a closed question, and calls one of a replica that stopped listening orphaned', async () => {
    const store = await kit.open();
    await store.putSession(sampleSession('s'), 60_000);
    const heard: RoutedMessage[] = [];
    const stop = await store.subscribe('one', (routed) => heard.push(routed));
    await store.openQuestion({ sessionId: 's', questionId: 'q-1', replica: 'one' });
    await store.closeQuestion('s', 'q-1');
    await store.closeQuestion('s', 'never-asked');
    expect(await store.routeAnswer(answer('q-1'))).toBe('unknown');
    await store.openQuestion({ sessionId: 's', questionId: 'q-2', replica: 'never-listened' });
    expect(await store.routeAnswer(answer('q-2'))).toBe('orphaned');
    expect(await store.routeAnswer(answer('q-2'))).toBe('unknown');
    await store.openQuestion({ sessionId: 's', questionId: 'q-3', replica: 'one' });
    await stop();
    expect(await store.routeAnswer(answer('q-3'))).toBe('orphaned');
    await sleep(50);
    expect(heard).toEqual([]);
  });

  it('delivers one of many answers given at once to one question (from every replica)', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.putSession(sampleSession('s'), 60_000);
    const heard: RoutedMessage[] = [];
    const stop = await store.subscribe('one', (routed) => heard.push(routed));
    await store.openQuestion({ sessionId: 's', questionId: 'q-1', replica: 'one' });
    const routings = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? store : other).routeAnswer(answer('q-1')),
      ),
    );
    expect(routings.filter((routing) => routing === 'delivered')).toHaveLength(1);
    expect(routings.filter((routing) => routing === 'unknown')).toHaveLength(7);
    await eventually(() => heard.length >= 1);
    await sleep(50);
    expect(heard).toEqual([answer('q-1')]);
    await stop();
  });

  it('lists the calls waiting for approval oldest first, as they were put, until they expire', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    expect(await store.listPendingApprovals()).toEqual([]);
    const late = samplePending('late', 3_000);
    const early = samplePending('early', 1_000);
    const middle = { ...samplePending('middle', 2_000), profile: undefined, origin: undefined };
    delete middle.profile;
    delete middle.origin;
    await store.putPendingApproval(late);
    await other.putPendingApproval(early);
    await store.putPendingApproval(middle);
    await store.putPendingApproval({ ...samplePending('expired', 500), expiresAt: Date.now() - 1 });
    expect(await other.listPendingApprovals()).toEqual([early, middle, late]);
    expect(await store.listPendingApprovals()).toEqual([early, middle, late]);
  });

  it('replaces a waiting call put again under its id, and takes one off on any replica', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.putPendingApproval(samplePending('a', 1_000));
    const again = { ...samplePending('a', 1_000), arguments: { path: '/etc/other' } };
    await store.putPendingApproval(again);
    expect(await other.listPendingApprovals()).toEqual([again]);
    await other.removePendingApproval('a');
    await other.removePendingApproval('never-listed');
    expect(await store.listPendingApprovals()).toEqual([]);
  });

  it('hands out copies of waiting calls: changing one listed or put changes nothing stored', async () => {
    const store = await kit.open();
    const pending = samplePending('a', 1_000);
    const expected = structuredClone(pending);
    await store.putPendingApproval(pending);
    pending.arguments['path'] = '/etc/passwd';
    const [listed] = await store.listPendingApprovals();
    expect(listed).toEqual(expected);
    listed!.arguments['path'] = '/etc/shadow';
    expect(await store.listPendingApprovals()).toEqual([expected]);
  });

  it('lets a one-time token be claimed once across replicas, and forgets it after its time', async () => {
    const store = await kit.open();
    if (store.claimOnce === undefined) return;
    const other = await kit.replica(store);
    const claims = await Promise.all([
      store.claimOnce('nonce-a', 60_000),
      other.claimOnce!('nonce-a', 60_000),
      store.claimOnce('nonce-a', 60_000),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await other.claimOnce!('nonce-b', 60_000)).toBe(true);
    expect(await store.claimOnce('short', 30)).toBe(true);
    await sleep(80);
    expect(await other.claimOnce!('short', 30)).toBe(true);
  });

  it('keeps a grant in force for its stated time on every replica, then drops it', async () => {
    const store = await kit.open();
    if (store.putGrant === undefined || store.hasGrant === undefined) return;
    const other = await kit.replica(store);
    expect(await other.hasGrant!('p/tool')).toBe(false);
    await store.putGrant('p/tool', 60_000);
    expect(await other.hasGrant!('p/tool')).toBe(true);
    expect(await other.hasGrant!('q/tool')).toBe(false);
    await store.putGrant('p/brief', 30);
    await sleep(80);
    expect(await other.hasGrant!('p/brief')).toBe(false);
  });

  it('shares the accepted tool fingerprints, replacing the whole list on every put', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    expect(await store.getFingerprints()).toEqual(new Map());
    const many = new Map(
      Array.from(
        { length: 5_000 },
        (_, index) => [`big/tool_${index}`, `sha256:${index}`] as const,
      ),
    );
    await store.putFingerprints(many);
    expect(await other.getFingerprints()).toEqual(many);
    // A smaller list replaces the whole of the old one, nothing of it stays behind.
    const fewer = new Map([...many].slice(0, 10));
    await other.putFingerprints(fewer);
    expect(await store.getFingerprints()).toEqual(fewer);
    await store.putFingerprints(new Map());
    expect(await other.getFingerprints()).toEqual(new Map());
  });

  it('hands out copies of the fingerprints, and keeps one whole list of two put at once', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    const given = new Map([['fs/read', 'sha256:1']]);
    await store.putFingerprints(given);
    given.set('fs/write', 'sha256:2');
    const read = await store.getFingerprints();
    expect(read).toEqual(new Map([['fs/read', 'sha256:1']]));
    read.clear();
    expect((await store.getFingerprints()).size).toBe(1);
    const left = new Map(
      Array.from({ length: 300 }, (_, i) => [`a/t${i}`, `sha256:a${i}`] as const),
    );
    const right = new Map(
      Array.from({ length: 200 }, (_, i) => [`b/t${i}`, `sha256:b${i}`] as const),
    );
    await Promise.all([store.putFingerprints(left), other.putFingerprints(right)]);
    expect([left, right]).toContainEqual(await store.getFingerprints());
  });
}
