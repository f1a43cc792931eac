import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from '@redis/client';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { readAuditEntry } from './audit-record.js';
import {
  ADMIT_SCRIPT,
  EXPIRE_WITH_SESSION,
  REPLACE_HASH_CHUNK,
  REPLACE_HASH_SCRIPT,
  ROUTE_ANSWER_SCRIPT,
  redisKeys,
  TOUCH_SCRIPT,
} from './redis-keys.js';
import {
  type AnswerRouting,
  type AuditEntry,
  DEFAULT_AUDIT_MAX_RECORDS,
  DEFAULT_EVENTS_PER_SESSION,
  type GatewayStore,
  type RoutedMessage,
  type StoredAuditRecord,
  type StoredSession,
} from './types.js';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (Valkey too). */
  url: string;
  /** Prefix of every key and channel, so that several gateways share one database. @defaultValue 'tool-search:' */
  prefix?: string;
  /** How many audit records the stream keeps (approximately, `XADD MAXLEN ~`). @defaultValue 100000 */
  maxAuditRecords?: number;
  /** How many stream events to keep per session. @defaultValue 1000 */
  eventsPerSession?: number;
  /** How long one command may take before it fails `store_unavailable`. @defaultValue 2000 */
  commandTimeoutMs?: number;
  /** Told when the connection drops and comes back (a line for the log). */
  onStatus?: (status: { state: 'ready' | 'down'; detail?: string }) => void;
}

type Reply = string | number | null | Reply[];
/** A client of the store's URL, speaking RESP2 (plain arrays for every reply). */
function openClient(url: string) {
  return createClient({
    url,
    RESP: 2,
    // Fail at once while down: a queued command would run late, after the gateway
    // already answered (or let through) what depended on it.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 2_000),
    },
  });
}
type RedisClient = ReturnType<typeof openClient>;

/**
 * The URL without its password, for messages and logs.
 *
 * @param url - a Redis URL
 * @returns the URL with `***` for a password
 * @throws nothing
 */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis (unparsable URL)';
  }
}

/** Reads a stream reply (`[[id, [field, value, ...]], ...]`) into entries. */
function entriesOf(reply: Reply): { id: string; fields: Map<string, string> }[] {
  if (!Array.isArray(reply)) return [];
  return reply.map((entry) => {
    const [id, flat] = entry as [string, string[]];
    const fields = new Map<string, string>();
    for (let index = 0; index + 1 < flat.length; index += 2) {
      fields.set(String(flat[index]), String(flat[index + 1]));
    }
    return { id: String(id), fields };
  });
}

/**
 * Creates the Redis {@link GatewayStore} (Redis 6.2 or later, or Valkey), on the
 * maintained `@redis/client`. It connects in the background and reconnects on its
 * own (backing off up to 2 s); while it is down every method rejects at once with
 * `store_unavailable` (no command is queued for later) and `ping()` says why.
 *
 * Keys (under `prefix`): `session:<id>` (JSON, expires when idle), `approvals:<id>`
 * (a set), `questions:<id>` (a hash: open question id → the replica that asked),
 * `events:<id>` (a stream of at most `eventsPerSession`), `caps:all` and
 * `caps:p:<principal>` (sorted sets by last request), `audit` (a stream of at most
 * about `maxAuditRecords`), `fingerprints` (a hash); channels `routed:<replica>`, one per replica.
 *
 * @param options - see {@link RedisStoreOptions}
 * @returns the store, connecting
 * @throws {@link ToolSearchError} `invalid_config` when the URL is not a `redis:` or
 * `rediss:` URL
 */
export function createRedisStore(options: RedisStoreOptions): GatewayStore {
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    parsed = new URL('invalid:');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ToolSearchError(
      'invalid_config',
      `The store must be 'memory' or a redis://host:port[/db] URL, got '${options.url}'.`,
      { data: { field: 'store' } },
    );
  }
  const location = redactRedisUrl(options.url);
  const keys = redisKeys(options.prefix ?? 'tool-search:');
  const maxAudit = options.maxAuditRecords ?? DEFAULT_AUDIT_MAX_RECORDS;
  const eventsPerSession = options.eventsPerSession ?? DEFAULT_EVENTS_PER_SESSION;
  const commandTimeoutMs = options.commandTimeoutMs ?? 2_000;
  let lastError = 'not connected yet';
  let closed = false;

  const connect = (role: string): RedisClient => {
    const client = openClient(options.url);
    client.on('error', (error: unknown) => {
      lastError = describeError(error);
    });
    if (role === 'main') {
      let wasReady = false;
      client.on('ready', () => {
        wasReady = true;
        options.onStatus?.({ state: 'ready' });
      });
      client.on('end', () => {});
      client.on('reconnecting', () => {
        if (wasReady) options.onStatus?.({ state: 'down', detail: lastError });
        wasReady = false;
      });
    }
    client.connect().catch((error: unknown) => {
      lastError = describeError(error);
    });
    return client;
  };
  const client = connect('main');
  let subscriber: RedisClient | undefined;
  let blocking: RedisClient | undefined;

  const unavailable = (what: string, detail: string, cause?: unknown) =>
    new ToolSearchError(
      'store_unavailable',
      `The gateway's store (${location}) is unavailable: ${what} failed (${detail}). Nothing was kept in memory instead; try again in a few seconds.`,
      { ...(cause === undefined ? {} : { cause }), data: { field: 'store' } },
    );
  const run = async <T>(what: string, on: RedisClient, command: (string | number)[]) => {
    if (closed) throw unavailable(what, 'the store is closed');
    if (!on.isReady) throw unavailable(what, lastError);
    let timer: NodeJS.Timeout | undefined;
    try {
      return (await Promise.race([
        on.sendCommand(command.map(String)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${commandTimeoutMs} ms`)),
            commandTimeoutMs,
          );
        }),
      ])) as T;
    } catch (error) {
      throw unavailable(what, describeError(error), error);
    } finally {
      clearTimeout(timer);
    }
  };
  /** Waits (up to `ms`) for a client that is still connecting. */
  const readyWithin = async (on: RedisClient, ms: number) => {
    if (on.isReady || closed) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      on.once('ready', () => resolve());
    });
    clearTimeout(timer);
  };
  const call = <T = Reply>(what: string, command: (string | number)[]) =>
    run<T>(what, client, command);

  return {
    specificationVersion: 'v1',
    kind: 'redis',
    shared: true,
    location,
    async ping() {
      await call('PING', ['PING']);
    },
    async putSession(session: StoredSession, ttlMs) {
      const ttl = ttlMs > 0 ? ['PX', ttlMs] : [];
      await call('storing the session', [
        'SET',
        keys.session(session.id),
        JSON.stringify(session),
        ...ttl,
      ]);
    },
    async getSession(id) {
      const raw = await call<string | null>('reading the session', ['GET', keys.session(id)]);
      return raw === null ? undefined : (JSON.parse(raw) as StoredSession);
    },
    async touchSession(id, principal, ttlMs) {
      const alive = await call('touching the session', [
        'EVAL',
        TOUCH_SCRIPT,
        6,
        keys.session(id),
        keys.approvals(id),
        keys.events(id),
        keys.questions(id),
        keys.capsOf(principal),
        keys.capsAll,
        ttlMs,
        Date.now(),
        id,
      ]);
      return Number(alive) === 1;
    },
    async deleteSession(id, principal) {
      await call('deleting the session', [
        'EVAL',
        "redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4]) redis.call('ZREM', KEYS[5], ARGV[1]) redis.call('ZREM', KEYS[6], ARGV[1]) return 1",
        6,
        keys.session(id),
        keys.approvals(id),
        keys.events(id),
        keys.questions(id),
        keys.capsOf(principal),
        keys.capsAll,
        id,
      ]);
    },
    async admitSession(id, principal, limits) {
      const reply = await call<Reply[]>('counting the session under the caps', [
        'EVAL',
        ADMIT_SCRIPT,
        2,
        keys.capsOf(principal),
        keys.capsAll,
        Date.now(),
        limits.idleMs,
        limits.maxPerPrincipal,
        limits.maxSessions,
        id,
      ]);
      const [verdict, held] = reply as [number, number];
      if (verdict === 0) return { ok: true };
      return { ok: false, scope: verdict === 1 ? 'principal' : 'all', held: Number(held) };
    },
    async hasApproval(sessionId, key) {
      return (
        Number(
          await call('reading the approvals', ['SISMEMBER', keys.approvals(sessionId), key]),
        ) === 1
      );
    },
    async rememberApproval(sessionId, key) {
      await call('storing the approval', [
        'EVAL',
        EXPIRE_WITH_SESSION("redis.call('SADD', KEYS[2], ARGV[1])"),
        2,
        keys.session(sessionId),
        keys.approvals(sessionId),
        key,
      ]);
    },
    async appendEvent(sessionId, streamId, message) {
      return String(
        await call('storing the stream event', [
          'EVAL',
          EXPIRE_WITH_SESSION(
            "local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', 'stream', ARGV[2], 'message', ARGV[3])",
            'id',
          ),
          2,
          keys.session(sessionId),
          keys.events(sessionId),
          eventsPerSession,
          streamId,
          JSON.stringify(message),
        ]),
      );
    },
    async eventsAfter(sessionId, eventId) {
      if (!/^\d+-\d+$/.test(eventId)) return undefined;
      const key = keys.events(sessionId);
      const [first] = entriesOf(
        await call('reading the stream events', ['XRANGE', key, eventId, eventId]),
      );
      const streamId = first?.fields.get('stream');
      if (streamId === undefined) return undefined;
      const after = entriesOf(
        await call('reading the stream events', ['XRANGE', key, `(${eventId}`, '+']),
      );
      return {
        streamId,
        events: after
          .filter((entry) => entry.fields.get('stream') === streamId)
          .map((entry) => ({
            id: entry.id,
            message: JSON.parse(entry.fields.get('message') ?? 'null') as JSONRPCMessage,
          })),
      };
    },
    async appendAudit(record: StoredAuditRecord) {
      await call('writing the audit record', [
        'XADD',
        keys.audit,
        'MAXLEN',
        '~',
        maxAudit,
        '*',
        'record',
        JSON.stringify(record),
      ]);
    },
    async readAudit({ after, count, blockMs }) {
      const toEntries = (reply: Reply): AuditEntry[] =>
        entriesOf(reply).map((entry) => readAuditEntry(entry.id, entry.fields.get('record')));
      if (after === undefined) {
        return toEntries(
          await call('reading the audit trail', [
            'XREVRANGE',
            keys.audit,
            '+',
            '-',
            'COUNT',
            count,
          ]),
        ).reverse();
      }
      if (blockMs === undefined || blockMs <= 0) {
        return toEntries(
          await call('reading the audit trail', [
            'XRANGE',
            keys.audit,
            `(${after}`,
            '+',
            'COUNT',
            count,
          ]),
        );
      }
      // A blocking read holds its connection: it gets its own.
      blocking ??= connect('blocking');
      await readyWithin(blocking, commandTimeoutMs);
      const reply = await run<Reply>('following the audit trail', blocking, [
        'XREAD',
        'COUNT',
        count,
        'BLOCK',
        blockMs,
        'STREAMS',
        keys.audit,
        after,
      ]).catch((error: unknown) => {
        // The blocking read outlives the command timeout by design: only a real failure counts.
        if (ToolSearchError.isInstance(error) && /no answer within/.test(error.message))
          return null;
        throw error;
      });
      if (!Array.isArray(reply) || reply.length === 0) return [];
      const [, entries] = reply[0] as [string, Reply];
      return toEntries(entries);
    },
    async openQuestion({ sessionId, questionId, replica }) {
      await call('storing the open question', [
        'EVAL',
        EXPIRE_WITH_SESSION("redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])"),
        2,
        keys.session(sessionId),
        keys.questions(sessionId),
        questionId,
        replica,
      ]);
    },
    async closeQuestion(sessionId, questionId) {
      await call('closing the open question', ['HDEL', keys.questions(sessionId), questionId]);
    },
    async routeAnswer(routed: RoutedMessage): Promise<AnswerRouting> {
      const id = 'id' in routed.message ? routed.message.id : undefined;
      if (typeof id !== 'string') return 'unknown';
      const verdict = await call('routing the answer to its replica', [
        'EVAL',
        ROUTE_ANSWER_SCRIPT,
        1,
        keys.questions(routed.sessionId),
        id,
        JSON.stringify(routed),
        keys.routedTo(''),
      ]);
      return Number(verdict) === 1 ? 'delivered' : Number(verdict) === 2 ? 'orphaned' : 'unknown';
    },
    async subscribe(replica, listener) {
      subscriber ??= connect('subscriber');
      const channel = keys.routedTo(replica);
      const onMessage = (text: string) => {
        try {
          listener(JSON.parse(text) as RoutedMessage);
        } catch {
          // A message that is not ours is not worth a crash.
        }
      };
      const current = subscriber;
      // Down at the start: subscribe once it is up (the client resubscribes after a reconnect).
      if (!current.isReady) await new Promise((resolve) => current.once('ready', resolve));
      // Subscribing waits for the connection: the client resubscribes after a reconnect.
      await current.subscribe(channel, onMessage).catch((error: unknown) => {
        throw unavailable('subscribing to routed messages', describeError(error), error);
      });
      return async () => {
        await current.unsubscribe(channel, onMessage).catch(() => {});
      };
    },
    async getFingerprints() {
      const flat = await call<string[]>('reading the tool fingerprints', [
        'HGETALL',
        keys.fingerprints,
      ]);
      const accepted = new Map<string, string>();
      for (let index = 0; index + 1 < flat.length; index += 2) {
        accepted.set(String(flat[index]), String(flat[index + 1]));
      }
      return accepted;
    },
    async putFingerprints(accepted) {
      const flat = [...accepted].flat();
      await call('writing the tool fingerprints', [
        'EVAL',
        REPLACE_HASH_SCRIPT,
        1,
        keys.fingerprints,
        REPLACE_HASH_CHUNK,
        ...flat,
      ]);
    },
    async close() {
      if (closed) return;
      closed = true;
      // A blocking read may wait seconds more for a record: cut it off.
      if (blocking?.isOpen) blocking.destroy();
      await Promise.allSettled(
        [client, subscriber]
          .filter((each) => each !== undefined)
          .map((each) => (each.isOpen ? each.close() : Promise.resolve())),
      );
    },
  };
}
