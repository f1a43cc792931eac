import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  type AnswerRouting,
  type AuditEntry,
  DEFAULT_EVENTS_PER_SESSION,
  type GatewayStore,
  type RoutedMessage,
  type StoredAuditRecord,
  type StoredSession,
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

/**
 * Creates the in-memory {@link GatewayStore}: the default, for one process (the demo,
 * stdio, a single HTTP gateway). Nothing survives the process and no other process
 * sees it; it is never down.
 *
 * @param options.maxAuditRecords - how many audit records to keep @defaultValue 10000
 * @param options.eventsPerSession - how many stream events to keep per session @defaultValue 1000
 * @returns the store
 * @throws nothing
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): GatewayStore {
  const maxAudit = options.maxAuditRecords ?? 10_000;
  const eventsPerSession = options.eventsPerSession ?? DEFAULT_EVENTS_PER_SESSION;
  const sessions = new Map<string, Expiring<StoredSession>>();
  const approvals = new Map<string, Set<string>>();
  const events = new Map<string, { id: string; streamId: string; message: JSONRPCMessage }[]>();
  // principal → session id → last seen; the caps count these.
  const admitted = new Map<string, Map<string, number>>();
  const audit: AuditEntry[] = [];
  const auditWaiters = new Set<() => void>();
  // replica → who hears the answers to its questions
  const listeners = new Map<string, Set<(routed: RoutedMessage) => void>>();
  // session id → question id → the replica that asked
  const questions = new Map<string, Map<string, string>>();
  let fingerprints = new Map<string, string>();
  let sequence = 0;
  const expiry = (ttlMs: number) => (ttlMs > 0 ? Date.now() + ttlMs : Number.POSITIVE_INFINITY);

  const live = (id: string) => {
    const entry = sessions.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return entry;
    sessions.delete(id);
    return undefined;
  };
  const prune = (idleMs: number) => {
    if (idleMs <= 0) return;
    const oldest = Date.now() - idleMs;
    for (const [principal, held] of admitted) {
      for (const [id, seen] of held) if (seen < oldest) held.delete(id);
      if (held.size === 0) admitted.delete(principal);
    }
  };

  return {
    specificationVersion: 'v1',
    kind: 'memory',
    shared: false,
    location: 'memory',
    ping: async () => {},
    async putSession(session, ttlMs) {
      sessions.set(session.id, { value: session, expiresAt: expiry(ttlMs) });
    },
    getSession: async (id) => live(id)?.value,
    async touchSession(id, principal, ttlMs) {
      const entry = live(id);
      if (entry !== undefined) entry.expiresAt = expiry(ttlMs);
      const held = admitted.get(principal);
      if (held?.has(id)) held.set(id, Date.now());
      return entry !== undefined;
    },
    async deleteSession(id, principal) {
      sessions.delete(id);
      approvals.delete(id);
      questions.delete(id);
      events.delete(id);
      admitted.get(principal)?.delete(id);
    },
    async admitSession(id, principal, limits) {
      prune(limits.idleMs);
      const held = admitted.get(principal) ?? new Map<string, number>();
      if (held.size >= limits.maxPerPrincipal) {
        return { ok: false, scope: 'principal', held: held.size };
      }
      let all = 0;
      for (const other of admitted.values()) all += other.size;
      if (all >= limits.maxSessions) return { ok: false, scope: 'all', held: all };
      held.set(id, Date.now());
      admitted.set(principal, held);
      return { ok: true };
    },
    hasApproval: async (sessionId, key) => approvals.get(sessionId)?.has(key) === true,
    async rememberApproval(sessionId, key) {
      const keys = approvals.get(sessionId) ?? new Set<string>();
      keys.add(key);
      approvals.set(sessionId, keys);
    },
    async appendEvent(sessionId, streamId, message) {
      sequence += 1;
      const id = `${sequence}`;
      const list = events.get(sessionId) ?? [];
      list.push({ id, streamId, message });
      if (list.length > eventsPerSession) list.splice(0, list.length - eventsPerSession);
      events.set(sessionId, list);
      return id;
    },
    async eventsAfter(sessionId, eventId) {
      const list = events.get(sessionId) ?? [];
      const index = list.findIndex((event) => event.id === eventId);
      if (index < 0) return undefined;
      const { streamId } = list[index]!;
      return {
        streamId,
        events: list
          .slice(index + 1)
          .filter((event) => event.streamId === streamId)
          .map(({ id, message }) => ({ id, message })),
      };
    },
    async appendAudit(record: StoredAuditRecord) {
      sequence += 1;
      audit.push({ id: `${sequence}`, record });
      if (audit.length > maxAudit) audit.splice(0, audit.length - maxAudit);
      for (const wake of auditWaiters) wake();
    },
    async readAudit({ after, count, blockMs }) {
      const read = () => {
        if (after === undefined) return audit.slice(-count);
        const start = audit.findIndex((entry) => Number(entry.id) > Number(after));
        return start < 0 ? [] : audit.slice(start, start + count);
      };
      const found = read();
      if (found.length > 0 || blockMs === undefined || blockMs <= 0 || after === undefined) {
        return found;
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          auditWaiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, blockMs);
        auditWaiters.add(wake);
      });
      return read();
    },
    async openQuestion({ sessionId, questionId, replica }) {
      const open = questions.get(sessionId) ?? new Map<string, string>();
      open.set(questionId, replica);
      questions.set(sessionId, open);
    },
    async closeQuestion(sessionId, questionId) {
      questions.get(sessionId)?.delete(questionId);
    },
    async routeAnswer(routed): Promise<AnswerRouting> {
      const id = 'id' in routed.message ? routed.message.id : undefined;
      const open = questions.get(routed.sessionId);
      const replica = typeof id === 'string' ? open?.get(id) : undefined;
      if (replica === undefined || typeof id !== 'string') return 'unknown';
      open!.delete(id);
      const heard = listeners.get(replica);
      if (heard === undefined || heard.size === 0) return 'orphaned';
      for (const listener of heard) listener(routed);
      return 'delivered';
    },
    async subscribe(replica, listener) {
      const heard = listeners.get(replica) ?? new Set();
      heard.add(listener);
      listeners.set(replica, heard);
      return async () => {
        heard.delete(listener);
      };
    },
    getFingerprints: async () => new Map(fingerprints),
    async putFingerprints(accepted) {
      fingerprints = new Map(accepted);
    },
    async close() {
      for (const wake of auditWaiters) wake();
    },
  };
}
