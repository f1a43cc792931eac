import { afterEach, describe } from 'vitest';
import type { GatewayStore } from '../types.js';
import { consoleChecks } from './console.js';
import { exchangeChecks } from './exchange.js';
import { StoreHarness, type TestGatewayStoreOptions } from './harness.js';
import { learningChecks } from './learning.js';
import { sessionChecks } from './sessions.js';
import { streamChecks } from './streams.js';

export type { TestGatewayStoreOptions } from './harness.js';

/**
 * Registers a vitest suite that checks a {@link GatewayStore} against its contract, as
 * the memory and Redis stores keep it: the store's description and `ping`; session
 * records (kept as put, replaced, copies handed out, ids of any characters, expiry by
 * `ttlMs`, `touchSession`, deletion and expiry taking the session's approvals, events and
 * open questions with it); the caps of `admitSession` (per principal and in all, the
 * refusal's scope and count, idle sessions, many sessions asking at once); `allow-session`
 * approvals; stream events (per stream, in order, unknown and malformed ids, many appended
 * at once); the audit trail (the last `count`, paging with `after`, a blocking follow,
 * ids it cannot read, many records at once); open questions and routed answers (to the
 * one replica that asked, once, also when many answers race; closed questions; replicas
 * that stopped listening); the approvals inbox (order, expiry, replacement, removal);
 * the accepted tool fingerprints (whole-list replacement, 5,000 of them, two puts at
 * once); the console's ended sign-ins (on every replica, until they expire) and switched-off tools; and its learning from use against core's `createLearningRules` (counting, token
 * caps, bounds per tool and in all, decay, views, export and import). For a store that
 * says it is `shared`, the suite opens a second store on the same namespace as a second
 * replica and checks that each sees and races the other's writes. Some checks wait for a
 * ttl or an idle clock, with room for a loaded machine (about 6 s in all).
 *
 * Call it at the top level of a test file.
 *
 * @example
 * ```ts
 * import { testGatewayStore } from '@tool-search/mcp/testing';
 * import { createMyStore } from './my-store.js';
 *
 * testGatewayStore({
 *   open: ({ namespace }) => createMyStore({ url: process.env.MY_STORE_URL!, prefix: namespace }),
 *   teardown: (store) => store.close(),
 * });
 * ```
 *
 * @param options - see {@link TestGatewayStoreOptions}
 * @param options.open - opens a fresh, empty store in `namespace` (the same namespace: a second replica)
 * @param options.teardown - releases a store after its test @defaultValue `store.close()`
 * @param options.name - the suite's name @defaultValue `testGatewayStore`
 * @param options.learning - whether to check `learningStore` @defaultValue true
 * @returns nothing; registers `describe`/`it` blocks
 * @throws nothing itself; failed checks fail the registered tests
 */
export function testGatewayStore(options: TestGatewayStoreOptions): void {
  const kit = new StoreHarness(options);
  describe(options.name ?? 'testGatewayStore', () => {
    afterEach(() => kit.teardown());
    describe('sessions, caps and approvals', () => sessionChecks(kit));
    describe('stream events and the audit trail', () => streamChecks(kit));
    describe('answers, the approvals inbox and fingerprints', () => exchangeChecks(kit));
    describe('the console', () => consoleChecks(kit));
    if (options.learning !== false) describe('learning from use', () => learningChecks(kit));
  });
}
