// What every part of the store kit shares: the stores a test opens (and their teardown),
// a second replica of a shared store, sample records, and a wait for what a store
// delivers in the background (routed answers).

import { randomUUID } from 'node:crypto';
import type { GatewayStore, PendingApproval, StoredAuditRecord, StoredSession } from '../types.js';

/** Options of `testGatewayStore`. */
export interface TestGatewayStoreOptions {
  /**
   * Opens a fresh, empty store: every test opens its own. `namespace` is a fresh name per
   * test (a key prefix, a schema, a folder); for a store that is `shared`, the suite opens
   * a second store with the same `namespace` to stand for a second replica, which must
   * see the first one's data.
   */
  open: (context: { namespace: string }) => GatewayStore | Promise<GatewayStore>;
  /**
   * Releases a store the suite opened, after its test (drop its namespace here).
   * @defaultValue `store.close()`
   */
  teardown?: (store: GatewayStore) => void | Promise<void>;
  /** The suite's name. @defaultValue `testGatewayStore(<kind>)`, the kind of the first store */
  name?: string;
  /**
   * Whether the store keeps learning from use (`learningStore`), checked against core's
   * learning rules. Pass `false` for a store without it (the gateway then learns in memory).
   * @defaultValue true
   */
  learning?: boolean;
}

/** The stores of one test: the first, a second replica on the same namespace, and the cleanup. */
export class StoreHarness {
  private readonly opened: GatewayStore[] = [];
  private namespace = '';

  constructor(private readonly options: TestGatewayStoreOptions) {}

  /** Opens the test's store, in a namespace of its own. */
  async open(): Promise<GatewayStore> {
    this.namespace = `kit-${randomUUID()}:`;
    return this.track(await this.options.open({ namespace: this.namespace }));
  }

  /** Another store on the same namespace: a second replica (the same store when not shared). */
  async replica(store: GatewayStore): Promise<GatewayStore> {
    if (!store.shared) return store;
    return this.track(await this.options.open({ namespace: this.namespace }));
  }

  /** Closes what the test opened. */
  async teardown(): Promise<void> {
    const stores = this.opened.splice(0);
    const teardown = this.options.teardown ?? ((store: GatewayStore) => store.close());
    await Promise.all(stores.map((store) => teardown(store)));
  }

  private track(store: GatewayStore): GatewayStore {
    this.opened.push(store);
    return store;
  }
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` until it holds or `timeoutMs` passes (what a store delivers in the background). */
export async function eventually(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await sleep(20);
}

/** A session record with every field set. */
export function sampleSession(id: string, principal = 'token-a'): StoredSession {
  return {
    id,
    principal,
    profile: 'team-a',
    initialize: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'kit-client', version: '1.0.0', title: 'Kit é 漢字' },
    },
    createdAt: 1_764_000_000_000,
  };
}

/** An audit record of a call of `tool`, with most of its fields set. */
export function sampleAudit(tool: string): StoredAuditRecord {
  return {
    tool,
    origin: { server: 'files', name: tool },
    sessionId: 's-audit',
    via: 'bridge',
    decision: 'denied',
    status: 'denied',
    deniedBy: { kind: 'scope', name: tool },
    reason: 'outside the session’s scope',
    startedAt: '2026-12-04T12:00:00.000Z',
    durationMs: 3,
    profile: 'team-a',
    replica: 'kit:1',
  };
}

/** A call waiting in the approvals inbox. */
export function samplePending(id: string, askedAt: number, expiresIn = 60_000): PendingApproval {
  return {
    id,
    sessionId: 's-inbox',
    profile: 'team-a',
    tool: 'files_write',
    origin: { server: 'files', name: 'write' },
    toolset: 'mcp-files',
    arguments: { path: '/tmp/a.txt', content: 'x', nested: { list: [1, 2, 3] } },
    via: 'program',
    programId: 'program-1',
    destructive: true,
    askedAt,
    expiresAt: Date.now() + expiresIn,
  };
}
