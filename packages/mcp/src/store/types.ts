import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { LearningLimits, LearningStore } from '@tool-search/core';
import type { AuditRecord, CallRoute } from '@tool-search/hooks';

/**
 * A session as the store keeps it: enough for any replica to serve its next request
 * (the token that opened it, its profile, and the client's `initialize` request,
 * which a replica replays into a fresh transport).
 */
export interface StoredSession {
  /** The `Mcp-Session-Id`. */
  id: string;
  /** The principal (token) that opened it: '' when no token is required. */
  principal: string;
  /**
   * The session's profile when it opened, for people reading the store. Never what
   * scopes the session: a replica that restores it takes the profile from the token of
   * each request and its own config.
   */
  profile?: string;
  /** The params of the client's `initialize` request (protocol version, capabilities, client info). */
  initialize: Record<string, unknown>;
  /** When it opened (`Date.now()`). */
  createdAt: number;
}

/** One audit record as the store keeps it: the hook's record and where it came from. */
export interface StoredAuditRecord extends AuditRecord {
  /** The session's profile, when it has one. */
  profile?: string;
  /** The replica that wrote it (`host:pid`). */
  replica: string;
}

/**
 * An audit record with its position in the trail; or, for a record that cannot be read
 * back (not JSON, not an object: written by something else, or damaged), why not.
 */
export type AuditEntry =
  | {
      /** The store's id of the entry: pass it as `after` to read on from there. */
      id: string;
      record: StoredAuditRecord;
      malformed?: undefined;
    }
  | {
      /** The store's id of the entry: pass it as `after` to read on from there. */
      id: string;
      record?: undefined;
      /** Why the record cannot be read, and the start of its text (200 characters). */
      malformed: { reason: string; text: string };
    };

/** Whether a session may open under the caps (see {@link GatewayStore.admitSession}). */
export type StoreAdmission = { ok: true } | { ok: false; scope: 'principal' | 'all'; held: number };

/** The caps that {@link GatewayStore.admitSession} enforces. */
export interface StoreSessionLimits {
  /** The most sessions in all. */
  maxSessions: number;
  /** The most sessions one principal (token) holds. */
  maxPerPrincipal: number;
  /** A session without a request for this long no longer counts (0: never expires). */
  idleMs: number;
}

/** A JSON-RPC message from a client to a server-side request, routed to the replica that asked. */
export type RoutedMessage = { sessionId: string; message: JSONRPCMessage };

/**
 * A question a replica put to a session's client (a server-side request such as an
 * approval's `elicitation/create`), open until answered, cancelled or the session ends.
 */
export interface OpenQuestion {
  /** The session it was asked in. */
  sessionId: string;
  /** The JSON-RPC id the client saw: fresh per question, unique across replicas. */
  questionId: string;
  /** The replica that asked, which alone delivers the answer. */
  replica: string;
}

/**
 * What became of a client's answer (see {@link GatewayStore.routeAnswer}): `delivered`
 * to the replica that asked; `unknown` when no open question of the session has its
 * id (answered already, cancelled, timed out or never asked); `orphaned` when the
 * replica that asked no longer listens (it stopped, and the call it held with it).
 */
export type AnswerRouting = 'delivered' | 'unknown' | 'orphaned';

/**
 * A call waiting for an operator's answer in the console's approvals inbox, as the
 * store keeps it for every replica's console.
 */
export interface PendingApproval {
  /** The question's id: the answer names it. */
  id: string;
  /** The session whose call waits. */
  sessionId: string;
  /** The session's profile, when it has one. */
  profile?: string;
  /** The tool's exposed name. */
  tool: string;
  /** Where the tool really comes from, when it is an upstream's. */
  origin?: { server: string; name: string };
  /** The tool's toolset. */
  toolset?: string;
  /** The arguments exactly as they will run. */
  arguments: Record<string, unknown>;
  /** How the call came in (`bridge`, `direct`, `program`), when the dispatcher said. */
  via?: CallRoute;
  /** The program that made the call, when `via` is `program`. */
  programId?: string;
  /** Whether the tool says it may be destructive. */
  destructive?: boolean;
  /** When it was asked (`Date.now()`). */
  askedAt: number;
  /** When it is denied unanswered (`Date.now()` scale). */
  expiresAt: number;
}

/**
 * Where a gateway keeps the state that must outlive one process: sessions, their
 * `allow-session` approvals, their open questions to the client, the events of their streams (for `Last-Event-ID`), the
 * session caps, the audit trail, the calls waiting in the console's approvals inbox, the
 * accepted tool fingerprints, the console's ended sign-ins and the tools an operator switched off. Two
 * implementations: {@link createMemoryStore} (one process, the default) and
 * {@link createRedisStore} (any number of replicas, Redis or Valkey).
 *
 * Every method of a store that is down rejects with a `ToolSearchError`
 * `store_unavailable`: the gateway fails closed on it, never keeps in memory only.
 */
export interface GatewayStore {
  readonly specificationVersion: 'v1';
  /** `memory` or `redis`. */
  readonly kind: string;
  /** Whether other processes see what this one writes (several replicas may share it). */
  readonly shared: boolean;
  /** Where it is, for messages (a Redis URL without its password, or `memory`). */
  readonly location: string;
  /** Resolves when the store answers; rejects `store_unavailable` when it does not. */
  ping(): Promise<void>;

  /** Keeps a session for `ttlMs` (0: until deleted). */
  putSession(session: StoredSession, ttlMs: number): Promise<void>;
  /** The session, or undefined when unknown (or expired). */
  getSession(id: string): Promise<StoredSession | undefined>;
  /**
   * Restarts a session's idle clock (its record and its place under the caps).
   * Resolves false when the session is gone (deleted on another replica, or expired).
   */
  touchSession(id: string, principal: string, ttlMs: number): Promise<boolean>;
  /** Forgets a session, its approvals, events and place under the caps. */
  deleteSession(id: string, principal: string): Promise<void>;
  /**
   * Counts a new session under the caps, atomically across replicas: sessions idle
   * for longer than `limits.idleMs` no longer count.
   */
  admitSession(id: string, principal: string, limits: StoreSessionLimits): Promise<StoreAdmission>;

  /** Whether the tool of identity key `key` was allowed for the rest of the session. */
  hasApproval(sessionId: string, key: string): Promise<boolean>;
  /** Remembers an `allow-session` answer for the rest of the session (it expires with it). */
  rememberApproval(sessionId: string, key: string): Promise<void>;

  /**
   * Stores one message of a session's SSE stream; returns its event id, unique within
   * the session and in the order of the session's events (another session may use the
   * same id).
   */
  appendEvent(sessionId: string, streamId: string, message: JSONRPCMessage): Promise<string>;
  /**
   * The events of the stream of `eventId` after it, oldest first; undefined when the
   * event is unknown (too old, or of another session).
   */
  eventsAfter(
    sessionId: string,
    eventId: string,
  ): Promise<{ streamId: string; events: { id: string; message: JSONRPCMessage }[] } | undefined>;

  /** Appends a record to the audit trail (bounded: the oldest go first). */
  appendAudit(record: StoredAuditRecord): Promise<void>;
  /**
   * Reads the audit trail: the `count` oldest after `after` (absent: the last `count`).
   * With `blockMs`, waits that long for a new record when there is none.
   */
  readAudit(options: { after?: string; count: number; blockMs?: number }): Promise<AuditEntry[]>;

  /**
   * Records a question `question.replica` put to the client of `question.sessionId`,
   * until {@link GatewayStore.routeAnswer} or {@link GatewayStore.closeQuestion}
   * takes it, or the session ends.
   */
  openQuestion(question: OpenQuestion): Promise<void>;
  /** Forgets an open question that will not be answered (cancelled, timed out). */
  closeQuestion(sessionId: string, questionId: string): Promise<void>;
  /**
   * Hands a client's answer to exactly the replica whose open question of
   * `routed.sessionId` has the answer's id, and closes that question, in one step: a
   * second answer to it, or one given on another session, finds nothing.
   */
  routeAnswer(routed: RoutedMessage): Promise<AnswerRouting>;
  /**
   * Receives the answers that {@link GatewayStore.routeAnswer} hands to `replica`'s
   * questions, from whichever replica got them; returns how to stop.
   */
  subscribe(
    replica: string,
    listener: (routed: RoutedMessage) => void,
  ): Promise<() => Promise<void>>;

  /**
   * Takes a one-time token (a `requestState`'s nonce): true the first time on any replica
   * that shares the store, false for every later claim until `ttlMs` passes. Optional:
   * without it a gateway offers no one-time answers (it answers as before them).
   *
   * @param key - the token
   * @param ttlMs - how long it is remembered (at least as long as it can be presented)
   * @returns whether this claim was the first
   */
  claimOnce?(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Grants something for a stated time ('allow this tool for this credential for an hour'),
   * seen by every replica that shares the store. Optional, with {@link GatewayStore.hasGrant}.
   *
   * @param key - what is granted (it names the credential and the tool)
   * @param ttlMs - for how long
   */
  putGrant?(key: string, ttlMs: number): Promise<void>;
  /** Whether a grant is in force. @param key - as given to {@link GatewayStore.putGrant} */
  hasGrant?(key: string): Promise<boolean>;
  /** Lists a call waiting in the console's approvals inbox (until `expiresAt`). */
  putPendingApproval(pending: PendingApproval): Promise<void>;
  /** The calls waiting in the approvals inbox, oldest first (expired ones dropped). */
  listPendingApprovals(): Promise<PendingApproval[]>;
  /** Takes a call off the approvals inbox (answered, timed out, cancelled). */
  removePendingApproval(id: string): Promise<void>;

  /** The accepted tool fingerprints (`server/name` → `sha256:…`), shared by the replicas. */
  getFingerprints(): Promise<Map<string, string>>;
  /** Replaces the accepted tool fingerprints. */
  putFingerprints(accepted: ReadonlyMap<string, string>): Promise<void>;

  /**
   * Ends a console sign-in on every replica that shares the store (its operator signed
   * out): {@link GatewayStore.isSignInRevoked} answers true for `id` until `expiresAt`
   * (`Date.now()` scale, when the sign-in would have ended anyway), after which the
   * store may forget it.
   */
  revokeSignIn(id: string, expiresAt: number): Promise<void>;
  /** Whether a console sign-in was ended by {@link GatewayStore.revokeSignIn} (and has not expired). */
  isSignInRevoked(id: string): Promise<boolean>;

  /**
   * Switches a tool off (`off: true`) or back on, by its review key (`server/name`), for
   * every replica: the gateway refuses its calls while it is off, whatever the route.
   */
  switchTool(key: string, off: boolean): Promise<void>;
  /** The review keys of the tools an operator switched off. */
  switchedOffTools(): Promise<Set<string>>;

  /**
   * The store of learning from use (which tool was called after which search), kept
   * where the rest is: in this process for a memory store, in Redis (shared by the
   * replicas) for a Redis store. Absent on a store that cannot keep it: the gateway
   * then learns in its own memory.
   *
   * @param options - bounds and decay of the learned terms
   * @throws `ToolSearchError` `invalid_argument` for a bad limit
   */
  learningStore?(options?: LearningStoreOptions): LearningStore;

  /** Disconnects (a memory store forgets nothing). */
  close(): Promise<void>;
}

/** Options of {@link GatewayStore.learningStore}. */
export interface LearningStoreOptions {
  /** Bounds and decay that differ from core's `DEFAULT_LEARNING_LIMITS`. */
  limits?: Partial<LearningLimits>;
  /** The clock of the decay, in milliseconds. @defaultValue `Date.now` */
  now?: () => number;
}

/** How many audit records a store keeps by default: beyond it the oldest go. */
export const DEFAULT_AUDIT_MAX_RECORDS = 100_000;
/** How many events a store keeps per session for `Last-Event-ID`. */
export const DEFAULT_EVENTS_PER_SESSION = 1_000;
