import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMemoryLearningStore, type LearningStore } from '@tool-search/core';
import { readAuditEntry } from './audit-record.js';
import {
  type AnswerRouting,
  type AuditEntry,
  DEFAULT_EVENTS_PER_SESSION,
  type GatewayStore,
  type OpenQuestion,
  type PendingApproval,
  type RoutedMessage,
  type StoreAdmission,
  type StoredAuditRecord,
  type StoredSession,
  type StoreSessionLimits,
} from './types.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** How many audit records to keep. @defaultValue 10000 */
  maxAuditRecords?: number;
  /** How many stream events to keep per session. @defaultValue 1000 */
  eventsPerSession?: number;
}

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

type StoredEvent = { id: string; streamId: string; message: JSONRPCMessage };

const expiry = (ttlMs: number) => (ttlMs > 0 ? Date.now() + ttlMs : Number.POSITIVE_INFINITY);

// What the store keeps and hands out are copies, as a shared store's are: a caller that
// changes a value it put or read changes nothing stored.
const copy = <T>(value: T): T => structuredClone(value);

/** The records of one memory store, and what each store method does to them. */
class MemoryRecords {
  readonly sessions = new Map<string, Expiring<StoredSession>>();
  readonly approvals = new Map<string, Set<string>>();
  readonly events = new Map<string, StoredEvent[]>();
  // principal → session id → last seen; the caps count these.
  readonly admitted = new Map<string, Map<string, number>>();
  // The records as JSON, as a shared store keeps them: written once per call, read rarely.
  readonly audit: { id: string; text: string }[] = [];
  readonly auditWaiters = new Set<() => void>();
  // replica → who hears the answers to its questions
  readonly listeners = new Map<string, Set<(routed: RoutedMessage) => void>>();
  // session id → question id → the replica that asked
  readonly questions = new Map<string, Map<string, string>>();
  fingerprints = new Map<string, string>();
  readonly pending = new Map<string, PendingApproval>();
  // console sign-in id → when it would have ended
  readonly revokedSignIns = new Map<string, number>();
  // one-time tokens and grants → when they are forgotten
  readonly timed = new Map<string, number>();
  readonly switchedOff = new Set<string>();
  private sequence = 0;

  /** Keeps a timed key; now and then forgets every expired one, so that they never pile up. */
  keepTimed(key: string, until: number): void {
    this.timed.set(key, until);
    if (this.timed.size % 1024 !== 0) return;
    const now = Date.now();
    for (const [name, expiresAt] of this.timed) if (expiresAt <= now) this.timed.delete(name);
  }

  /** Whether a timed key is in force (an expired one is forgotten). */
  inForce(key: string): boolean {
    const until = this.timed.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.timed.delete(key);
    return false;
  }

  constructor(
    private readonly maxAudit: number,
    private readonly eventsPerSession: number,
  ) {}

  live(id: string): Expiring<StoredSession> | undefined {
    const entry = this.sessions.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return entry;
    this.expire(id);
    return undefined;
  }

  /**
   * Forgets a session whose record expired, with its approvals, events and open
   * questions, which expire with it (its place under the caps goes when idle).
   * What was kept for a session without a record stays.
   */
  expire(id: string): void {
    const entry = this.sessions.get(id);
    if (entry === undefined || entry.expiresAt > Date.now()) return;
    this.sessions.delete(id);
    this.approvals.delete(id);
    this.questions.delete(id);
    this.events.delete(id);
  }

  touchSession(id: string, principal: string, ttlMs: number): boolean {
    const entry = this.live(id);
    if (entry === undefined) return false;
    entry.expiresAt = expiry(ttlMs);
    const held = this.admitted.get(principal);
    if (held?.has(id)) held.set(id, Date.now());
    return true;
  }

  deleteSession(id: string, principal: string): void {
    this.sessions.delete(id);
    this.approvals.delete(id);
    this.questions.delete(id);
    this.events.delete(id);
    this.admitted.get(principal)?.delete(id);
  }

  admitSession(id: string, principal: string, limits: StoreSessionLimits): StoreAdmission {
    this.prune(limits.idleMs);
    const held = this.admitted.get(principal) ?? new Map<string, number>();
    if (held.size >= limits.maxPerPrincipal) {
      return { ok: false, scope: 'principal', held: held.size };
    }
    let all = 0;
    for (const other of this.admitted.values()) all += other.size;
    if (all >= limits.maxSessions) return { ok: false, scope: 'all', held: all };
    held.set(id, Date.now());
    this.admitted.set(principal, held);
    return { ok: true };
  }

  rememberApproval(sessionId: string, key: string): void {
    this.expire(sessionId);
    const keys = this.approvals.get(sessionId) ?? new Set<string>();
    keys.add(key);
    this.approvals.set(sessionId, keys);
  }

  appendEvent(sessionId: string, streamId: string, message: JSONRPCMessage): string {
    this.expire(sessionId);
    this.sequence += 1;
    const id = `${this.sequence}`;
    const list = this.events.get(sessionId) ?? [];
    list.push({ id, streamId, message: copy(message) });
    if (list.length > this.eventsPerSession) list.splice(0, list.length - this.eventsPerSession);
    this.events.set(sessionId, list);
    return id;
  }

  eventsAfter(sessionId: string, eventId: string) {
    this.expire(sessionId);
    const list = this.events.get(sessionId) ?? [];
    const index = list.findIndex((event) => event.id === eventId);
    if (index < 0) return undefined;
    const { streamId } = list[index]!;
    return {
      streamId,
      events: list
        .slice(index + 1)
        .filter((event) => event.streamId === streamId)
        .map(({ id, message }) => ({ id, message: copy(message) })),
    };
  }

  appendAudit(record: StoredAuditRecord): void {
    this.sequence += 1;
    this.audit.push({ id: `${this.sequence}`, text: JSON.stringify(record) });
    if (this.audit.length > this.maxAudit) this.audit.splice(0, this.audit.length - this.maxAudit);
    for (const wake of this.auditWaiters) wake();
  }

  async readAudit({
    after,
    count,
    blockMs,
  }: Parameters<GatewayStore['readAudit']>[0]): Promise<AuditEntry[]> {
    const read = () => {
      if (after === undefined) return this.audit.slice(-count);
      const start = this.audit.findIndex((entry) => Number(entry.id) > Number(after));
      return start < 0 ? [] : this.audit.slice(start, start + count);
    };
    const entries = (found: { id: string; text: string }[]) =>
      found.map(({ id, text }) => readAuditEntry(id, text));
    const found = read();
    if (found.length > 0 || blockMs === undefined || blockMs <= 0 || after === undefined) {
      return entries(found);
    }
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.auditWaiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, blockMs);
      this.auditWaiters.add(wake);
    });
    return entries(read());
  }

  openQuestion({ sessionId, questionId, replica }: OpenQuestion): void {
    this.expire(sessionId);
    const open = this.questions.get(sessionId) ?? new Map<string, string>();
    open.set(questionId, replica);
    this.questions.set(sessionId, open);
  }

  routeAnswer(routed: RoutedMessage): AnswerRouting {
    this.expire(routed.sessionId);
    const id = 'id' in routed.message ? routed.message.id : undefined;
    const open = this.questions.get(routed.sessionId);
    const replica = typeof id === 'string' ? open?.get(id) : undefined;
    if (replica === undefined || typeof id !== 'string') return 'unknown';
    open!.delete(id);
    const heard = this.listeners.get(replica);
    if (heard === undefined || heard.size === 0) return 'orphaned';
    for (const listener of heard) listener(routed);
    return 'delivered';
  }

  subscribe(replica: string, listener: (routed: RoutedMessage) => void): () => Promise<void> {
    const heard = this.listeners.get(replica) ?? new Set();
    heard.add(listener);
    this.listeners.set(replica, heard);
    return async () => {
      heard.delete(listener);
    };
  }

  listPending(): PendingApproval[] {
    const now = Date.now();
    for (const [id, pending] of this.pending) if (pending.expiresAt <= now) this.pending.delete(id);
    return [...this.pending.values()].sort((a, b) => a.askedAt - b.askedAt).map(copy);
  }

  isSignInRevoked(id: string): boolean {
    const now = Date.now();
    for (const [revoked, until] of this.revokedSignIns) {
      if (until <= now) this.revokedSignIns.delete(revoked);
    }
    return this.revokedSignIns.has(id);
  }

  private prune(idleMs: number): void {
    if (idleMs <= 0) return;
    const oldest = Date.now() - idleMs;
    for (const [principal, held] of this.admitted) {
      for (const [id, seen] of held) if (seen < oldest) held.delete(id);
      if (held.size === 0) this.admitted.delete(principal);
    }
  }
}

/**
 * Creates the in-memory {@link GatewayStore}: the default, for one process (the demo,
 * stdio, a single HTTP gateway). Nothing survives the process and no other process
 * sees it; it is never down. Its learning store is core's `createMemoryLearningStore`.
 *
 * @param options.maxAuditRecords - how many audit records to keep @defaultValue 10000
 * @param options.eventsPerSession - how many stream events to keep per session @defaultValue 1000
 * @returns the store
 * @throws nothing
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): GatewayStore {
  const memory = new MemoryRecords(
    options.maxAuditRecords ?? 10_000,
    options.eventsPerSession ?? DEFAULT_EVENTS_PER_SESSION,
  );
  let learning: LearningStore | undefined;
  return {
    specificationVersion: 'v1',
    kind: 'memory',
    shared: false,
    location: 'memory',
    ping: async () => {},
    async putSession(session, ttlMs) {
      memory.sessions.set(session.id, { value: copy(session), expiresAt: expiry(ttlMs) });
    },
    async getSession(id) {
      const entry = memory.live(id);
      return entry === undefined ? undefined : copy(entry.value);
    },
    touchSession: async (id, principal, ttlMs) => memory.touchSession(id, principal, ttlMs),
    deleteSession: async (id, principal) => memory.deleteSession(id, principal),
    admitSession: async (id, principal, limits) => memory.admitSession(id, principal, limits),
    async hasApproval(sessionId, key) {
      memory.expire(sessionId);
      return memory.approvals.get(sessionId)?.has(key) === true;
    },
    rememberApproval: async (sessionId, key) => memory.rememberApproval(sessionId, key),
    async claimOnce(key, ttlMs) {
      if (memory.inForce(`once:${key}`)) return false;
      memory.keepTimed(`once:${key}`, expiry(ttlMs));
      return true;
    },
    async putGrant(key, ttlMs) {
      memory.keepTimed(`grant:${key}`, expiry(ttlMs));
    },
    hasGrant: async (key) => memory.inForce(`grant:${key}`),
    appendEvent: async (sessionId, streamId, message) =>
      memory.appendEvent(sessionId, streamId, message),
    eventsAfter: async (sessionId, eventId) => memory.eventsAfter(sessionId, eventId),
    appendAudit: async (record) => memory.appendAudit(record),
    readAudit: (readOptions) => memory.readAudit(readOptions),
    openQuestion: async (question) => memory.openQuestion(question),
    async closeQuestion(sessionId, questionId) {
      memory.questions.get(sessionId)?.delete(questionId);
    },
    routeAnswer: async (routed) => memory.routeAnswer(routed),
    subscribe: async (replica, listener) => memory.subscribe(replica, listener),
    async putPendingApproval(pending) {
      memory.pending.set(pending.id, copy(pending));
    },
    listPendingApprovals: async () => memory.listPending(),
    async removePendingApproval(id) {
      memory.pending.delete(id);
    },
    getFingerprints: async () => new Map(memory.fingerprints),
    async putFingerprints(accepted) {
      memory.fingerprints = new Map(accepted);
    },
    async revokeSignIn(id, expiresAt) {
      if (expiresAt > Date.now()) memory.revokedSignIns.set(id, expiresAt);
    },
    isSignInRevoked: async (id) => memory.isSignInRevoked(id),
    async switchTool(key, off) {
      if (off) memory.switchedOff.add(key);
      else memory.switchedOff.delete(key);
    },
    switchedOffTools: async () => new Set(memory.switchedOff),
    // One learning store per gateway store: the first call's options make it.
    learningStore(learningOptions = {}) {
      learning ??= createMemoryLearningStore({
        ...(learningOptions.limits === undefined ? {} : { limits: learningOptions.limits }),
        ...(learningOptions.now === undefined ? {} : { now: learningOptions.now }),
      });
      return learning;
    },
    async close() {
      for (const wake of memory.auditWaiters) wake();
    },
  };
}
