// The kit's checks of what the console keeps in the store: its ended sign-ins.

import { expect, it } from 'vitest';
import { type StoreHarness, sleep } from './harness.js';

/** Registers the checks of the console's ended sign-ins. */
export function consoleChecks(kit: StoreHarness): void {
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
