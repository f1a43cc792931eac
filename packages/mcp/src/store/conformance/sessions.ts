// The kit's checks of sessions: records, expiry, deletion, the caps and the approvals.

import { expect, it } from 'vitest';
import type { GatewayStore, StoreSessionLimits } from '../types.js';
import { type StoreHarness, sampleAudit, sampleSession, sleep } from './harness.js';

const message = (method: string) => ({ jsonrpc: '2.0' as const, method });
const answer = (sessionId: string, id: string) => ({
  sessionId,
  message: { jsonrpc: '2.0' as const, id, result: {} },
});

/** Registers the checks of the store's description, sessions and approvals. */
export function sessionChecks(kit: StoreHarness): void {
  it('declares specification v1, its kind, whether it is shared and where it is; ping resolves', async () => {
    const store = await kit.open();
    expect(store.specificationVersion).toBe('v1');
    expect(typeof store.kind).toBe('string');
    expect(store.kind.length).toBeGreaterThan(0);
    expect(typeof store.shared).toBe('boolean');
    expect(typeof store.location).toBe('string');
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('closes twice without error, and lets go of a follower of the audit trail when it closes', async () => {
    const store = await kit.open();
    await store.appendAudit(sampleAudit('one'));
    const [last] = await store.readAudit({ count: 1 });
    const following = store.readAudit({ after: last!.id, count: 10, blockMs: 20_000 }).then(
      () => 'settled',
      () => 'settled',
    );
    await sleep(100);
    await store.close();
    await store.close();
    const hung = sleep(5_000).then(() => 'still waiting after 5 s of a 20 s block');
    expect(await Promise.race([following, hung])).toBe('settled');
  });

  it('keeps a session record as it was put, replaces it when put again, and knows no other', async () => {
    const store = await kit.open();
    const record = sampleSession('s1');
    await store.putSession(record, 60_000);
    expect(await store.getSession('s1')).toEqual(record);
    expect(await store.getSession('s2')).toBeUndefined();
    const changed = { ...record, profile: 'team-b', initialize: { protocolVersion: 'x' } };
    await store.putSession(changed, 60_000);
    expect(await store.getSession('s1')).toEqual(changed);
    await store.deleteSession('never-opened', 'token-a');
  });

  it('hands out copies: changing a record it was given or gave changes nothing stored', async () => {
    const store = await kit.open();
    const record = sampleSession('s1');
    await store.putSession(record, 60_000);
    (record.initialize as { injected?: boolean }).injected = true;
    const read = await store.getSession('s1');
    expect(read).toEqual(sampleSession('s1'));
    read!.principal = 'mallory';
    expect((await store.getSession('s1'))?.principal).toBe('token-a');
  });

  it('keeps ids and principals of any characters apart', async () => {
    const store = await kit.open();
    const ids = ['a', 'a:b', 'a:b:', 'sé/ß 1', '漢字', '*', 'x'.repeat(300)];
    for (const id of ids) await store.putSession(sampleSession(id, `p:${id}`), 60_000);
    for (const id of ids) expect((await store.getSession(id))?.principal).toBe(`p:${id}`);
    await store.rememberApproval('a:b', 'fs/write');
    expect(await store.hasApproval('a', 'fs/write')).toBe(false);
    expect(await store.hasApproval('a:b:', 'fs/write')).toBe(false);
    await store.deleteSession('a', 'p:a');
    expect(await store.getSession('a:b')).toBeDefined();
  });

  it('expires a session not touched within its ttl; a touch restarts its clock; ttl 0 keeps it', async () => {
    const store = await kit.open();
    await store.putSession(sampleSession('touched'), 1_000);
    await store.putSession(sampleSession('idle'), 1_000);
    await store.putSession(sampleSession('forever'), 0);
    expect(await store.touchSession('touched', 'token-a', 60_000)).toBe(true);
    await sleep(1_500);
    expect(await store.getSession('touched')).toBeDefined();
    expect(await store.getSession('forever')).toBeDefined();
    expect(await store.getSession('idle')).toBeUndefined();
    expect(await store.touchSession('idle', 'token-a', 60_000)).toBe(false);
    expect(await store.touchSession('never-opened', 'token-a', 60_000)).toBe(false);
  });

  it('ends the approvals, events and open questions of a session with its record when it expires', async () => {
    const store = await kit.open();
    await store.putSession(sampleSession('short'), 1_000);
    await store.rememberApproval('short', 'fs/write');
    const event = await store.appendEvent('short', 'stream', message('one'));
    await store.appendEvent('short', 'stream', message('two'));
    await store.openQuestion({ sessionId: 'short', questionId: 'q-1', replica: 'r' });
    const stop = await store.subscribe('r', () => {});
    expect(await store.hasApproval('short', 'fs/write')).toBe(true);
    await sleep(1_500);
    expect(await store.hasApproval('short', 'fs/write')).toBe(false);
    expect(await store.eventsAfter('short', event)).toBeUndefined();
    expect(await store.routeAnswer(answer('short', 'q-1'))).toBe('unknown');
    await stop();
  });

  it('forgets a deleted session with its approvals, events, open questions and place under the caps', async () => {
    const store = await kit.open();
    const limits: StoreSessionLimits = { maxSessions: 10, maxPerPrincipal: 1, idleMs: 60_000 };
    expect(await store.admitSession('s1', 'token-a', limits)).toEqual({ ok: true });
    await store.putSession(sampleSession('s1'), 60_000);
    await store.rememberApproval('s1', 'fs/write');
    const event = await store.appendEvent('s1', 'stream', message('one'));
    await store.appendEvent('s1', 'stream', message('two'));
    await store.openQuestion({ sessionId: 's1', questionId: 'q-1', replica: 'r' });
    const stop = await store.subscribe('r', () => {});
    await store.deleteSession('s1', 'token-a');
    expect(await store.getSession('s1')).toBeUndefined();
    expect(await store.touchSession('s1', 'token-a', 60_000)).toBe(false);
    expect(await store.hasApproval('s1', 'fs/write')).toBe(false);
    expect(await store.eventsAfter('s1', event)).toBeUndefined();
    expect(await store.routeAnswer(answer('s1', 'q-1'))).toBe('unknown');
    expect(await store.admitSession('s2', 'token-a', limits)).toEqual({ ok: true });
    await stop();
  });

  it('admits sessions up to the caps of a principal and in all, saying which cap and how many hold it', async () => {
    const store = await kit.open();
    const limits = { maxSessions: 3, maxPerPrincipal: 2, idleMs: 60_000 };
    expect(await store.admitSession('a1', 'a', limits)).toEqual({ ok: true });
    expect(await store.admitSession('a2', 'a', limits)).toEqual({ ok: true });
    expect(await store.admitSession('a3', 'a', limits)).toEqual({
      ok: false,
      scope: 'principal',
      held: 2,
    });
    expect(await store.admitSession('b1', '', limits)).toEqual({ ok: true });
    expect(await store.admitSession('c1', 'c', limits)).toEqual({
      ok: false,
      scope: 'all',
      held: 3,
    });
    await store.deleteSession('a1', 'a');
    expect(await store.admitSession('c1', 'c', limits)).toEqual({ ok: true });
  });

  it('counts a session admitted twice once', async () => {
    const store = await kit.open();
    const limits = { maxSessions: 10, maxPerPrincipal: 2, idleMs: 60_000 };
    expect(await store.admitSession('x', 'p', limits)).toEqual({ ok: true });
    expect(await store.admitSession('x', 'p', limits)).toEqual({ ok: true });
    expect(await store.admitSession('y', 'p', limits)).toEqual({ ok: true });
    expect(await store.admitSession('z', 'p', limits)).toEqual({
      ok: false,
      scope: 'principal',
      held: 2,
    });
  });

  it('stops counting a session idle past idleMs, unless touched while its record lives; idleMs 0 never', async () => {
    // A gateway passes one idleMs to every call: idleMs 0 gets a store of its own.
    const forever = await kit.open();
    const store = await kit.open();
    const limits = { maxSessions: 100, maxPerPrincipal: 2, idleMs: 2_000 };
    const never = { maxSessions: 100, maxPerPrincipal: 1, idleMs: 0 };
    await store.putSession(sampleSession('kept', 'p'), 60_000);
    expect(await store.admitSession('kept', 'p', limits)).toEqual({ ok: true });
    // Admitted, but its record is gone (or never stored): a touch finds nothing to keep.
    expect(await store.admitSession('gone', 'p', limits)).toEqual({ ok: true });
    expect(await forever.admitSession('old', 'q', never)).toEqual({ ok: true });
    await sleep(1_200);
    expect(await store.touchSession('kept', 'p', 60_000)).toBe(true);
    expect(await store.touchSession('gone', 'p', 60_000)).toBe(false);
    await sleep(1_200);
    expect(await store.admitSession('new', 'p', limits)).toEqual({ ok: true });
    expect(await store.admitSession('more', 'p', limits)).toEqual({
      ok: false,
      scope: 'principal',
      held: 2,
    });
    expect(await forever.admitSession('late', 'q', never)).toEqual({
      ok: false,
      scope: 'principal',
      held: 1,
    });
  });

  it('admits exactly up to the caps when many sessions ask at once (from every replica)', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    const on = (index: number): GatewayStore => (index % 2 === 0 ? store : other);
    const perPrincipal = { maxSessions: 100, maxPerPrincipal: 5, idleMs: 60_000 };
    const mine = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        on(index).admitSession(`p${index}`, 'p', perPrincipal),
      ),
    );
    expect(mine.filter((admission) => admission.ok)).toHaveLength(5);
    const inAll = { maxSessions: 12, maxPerPrincipal: 100, idleMs: 60_000 };
    const all = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        on(index).admitSession(`q${index}`, `principal-${index}`, inAll),
      ),
    );
    // Five places are taken already: seven are left.
    expect(all.filter((admission) => admission.ok)).toHaveLength(7);
    expect(all.filter((admission) => !admission.ok)).toEqual(
      Array.from({ length: 9 }, () => ({ ok: false, scope: 'all', held: 12 })),
    );
  });

  it('remembers an allow-session answer per session and per tool key, on every replica', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.putSession(sampleSession('s1'), 60_000);
    await store.putSession(sampleSession('s2'), 60_000);
    expect(await store.hasApproval('s1', 'fs/write')).toBe(false);
    await store.rememberApproval('s1', 'fs/write');
    await store.rememberApproval('s1', 'fs/write');
    expect(await other.hasApproval('s1', 'fs/write')).toBe(true);
    expect(await other.hasApproval('s1', 'fs/read')).toBe(false);
    expect(await other.hasApproval('s2', 'fs/write')).toBe(false);
    expect(await other.hasApproval('s1', 'fs')).toBe(false);
  });
}
