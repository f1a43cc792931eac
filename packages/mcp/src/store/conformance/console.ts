// The kit's checks of what the console keeps in the store: its ended sign-ins and the
// tools an operator switched off.

import { expect, it } from 'vitest';
import { type StoreHarness, sleep } from './harness.js';

/** Registers the checks of the console's ended sign-ins and switched-off tools. */
export function consoleChecks(kit: StoreHarness): void {
  it('switches tools off and on for every replica, as a set, handing out copies', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    expect(await store.switchedOffTools()).toEqual(new Set());
    await store.switchTool('files/delete_file', true);
    await other.switchTool('odd server/na:me é', true);
    await other.switchTool('files/delete_file', true);
    const off = await store.switchedOffTools();
    expect(off).toEqual(new Set(['files/delete_file', 'odd server/na:me é']));
    off.clear();
    expect((await other.switchedOffTools()).size).toBe(2);
    await store.switchTool('files/delete_file', false);
    await store.switchTool('never/off', false);
    expect(await other.switchedOffTools()).toEqual(new Set(['odd server/na:me é']));
  });

  it('ends a console sign-in on every replica, until it would have expired, and no other', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    expect(await store.isSignInRevoked('sign-in-a')).toBe(false);
    await store.revokeSignIn('sign-in-a', Date.now() + 60_000);
    expect(await other.isSignInRevoked('sign-in-a')).toBe(true);
    expect(await store.isSignInRevoked('sign-in-a')).toBe(true);
    expect(await other.isSignInRevoked('sign-in-b')).toBe(false);
    // Ids of any characters stay their own key.
    await other.revokeSignIn('a:b/c é *', Date.now() + 60_000);
    expect(await store.isSignInRevoked('a:b/c é *')).toBe(true);
    expect(await store.isSignInRevoked('a:b/c é')).toBe(false);
    // Revoking twice is revoking once.
    await store.revokeSignIn('sign-in-a', Date.now() + 60_000);
    expect(await other.isSignInRevoked('sign-in-a')).toBe(true);
  });

  it('forgets an ended sign-in once it would have expired (one already past is not kept)', async () => {
    const store = await kit.open();
    const other = await kit.replica(store);
    await store.revokeSignIn('short', Date.now() + 300);
    await store.revokeSignIn('past', Date.now() - 1);
    expect(await other.isSignInRevoked('short')).toBe(true);
    expect(await other.isSignInRevoked('past')).toBe(false);
    await sleep(600);
    expect(await other.isSignInRevoked('short')).toBe(false);
  });
}
