import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { readAuditEntry } from './audit-record.js';
import { entriesOf, type RedisConnections, type Reply } from './redis-connection.js';
import { REPLACE_HASH_CHUNK, REPLACE_HASH_SCRIPT, ROUTE_ANSWER_SCRIPT } from './redis-keys.js';
import type {
  AnswerRouting,
  AuditEntry,
  GatewayStore,
  OpenQuestion,
  RoutedMessage,
  StoredAuditRecord,
} from './types.js';

// The replica-wide half of the Redis store: the audit trail, routed answers, fingerprints.

export async function appendAudit(
  redis: RedisConnections,
  record: StoredAuditRecord,
): Promise<void> {
  await redis.call('writing the audit record', [
    'XADD',
    redis.keys.audit,
    'MAXLEN',
    '~',
    redis.maxAudit,
    '*',
    'record',
    JSON.stringify(record),
  ]);
}

/** A Redis stream id, or its first part. */
const STREAM_ID = /^\d+(-\d+)?$/;

const toAuditEntries = (reply: Reply): AuditEntry[] =>
  entriesOf(reply).map((entry) => readAuditEntry(entry.id, entry.fields.get('record')));

export async function readAudit(
  redis: RedisConnections,
  { after, count, blockMs }: Parameters<GatewayStore['readAudit']>[0],
): Promise<AuditEntry[]> {
  const audit = redis.keys.audit;
  // An id that is no stream id (from a client, or damaged) reads nothing, as a memory
  // store's does: never a Redis error reported as the store being down.
  if (after !== undefined && !STREAM_ID.test(after)) return [];
  if (after === undefined) {
    return toAuditEntries(
      await redis.call('reading the audit trail', ['XREVRANGE', audit, '+', '-', 'COUNT', count]),
    ).reverse();
  }
  if (blockMs === undefined || blockMs <= 0) {
    return toAuditEntries(
      await redis.call('reading the audit trail', [
        'XRANGE',
        audit,
        `(${after}`,
        '+',
        'COUNT',
        count,
      ]),
    );
  }
  return followAudit(redis, after, count, blockMs);
}

/** A blocking read of the records after `after`, on its own connection. */
async function followAudit(
  redis: RedisConnections,
  after: string,
  count: number,
  blockMs: number,
): Promise<AuditEntry[]> {
  const blocking = redis.blockingClient();
  await redis.readyWithin(blocking, redis.commandTimeoutMs);
  const reply = await redis
    .run<Reply>('following the audit trail', blocking, [
      'XREAD',
      'COUNT',
      count,
      'BLOCK',
      blockMs,
      'STREAMS',
      redis.keys.audit,
      after,
    ])
    .catch((error: unknown) => {
      // The blocking read outlives the command timeout by design: only a real failure counts.
      if (ToolSearchError.isInstance(error) && /no answer within/.test(error.message)) return null;
      throw error;
    });
  if (!Array.isArray(reply) || reply.length === 0) return [];
  const [, entries] = reply[0] as [string, Reply];
  return toAuditEntries(entries);
}

export async function openQuestion(
  redis: RedisConnections,
  { sessionId, questionId, replica }: OpenQuestion,
): Promise<void> {
  await redis.writeWithSession(
    'storing the open question',
    "redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])",
    sessionId,
    redis.keys.questions(sessionId),
    [questionId, replica],
  );
}

export async function closeQuestion(
  redis: RedisConnections,
  sessionId: string,
  questionId: string,
): Promise<void> {
  await redis.call('closing the open question', [
    'HDEL',
    redis.keys.questions(sessionId),
    questionId,
  ]);
}

export async function routeAnswer(
  redis: RedisConnections,
  routed: RoutedMessage,
): Promise<AnswerRouting> {
  const id = 'id' in routed.message ? routed.message.id : undefined;
  if (typeof id !== 'string') return 'unknown';
  const verdict = await redis.call('routing the answer to its replica', [
    'EVAL',
    ROUTE_ANSWER_SCRIPT,
    1,
    redis.keys.questions(routed.sessionId),
    id,
    JSON.stringify(routed),
    redis.keys.routedTo(''),
  ]);
  return Number(verdict) === 1 ? 'delivered' : Number(verdict) === 2 ? 'orphaned' : 'unknown';
}

export async function subscribe(
  redis: RedisConnections,
  replica: string,
  listener: (routed: RoutedMessage) => void,
): Promise<() => Promise<void>> {
  const current = redis.subscriberClient();
  const channel = redis.keys.routedTo(replica);
  const onMessage = (text: string) => {
    try {
      listener(JSON.parse(text) as RoutedMessage);
    } catch {
      // A message that is not ours is not worth a crash.
    }
  };
  // Down at the start: subscribe once it is up (the client resubscribes after a reconnect).
  if (!current.isReady) await new Promise((resolve) => current.once('ready', resolve));
  // Subscribing waits for the connection: the client resubscribes after a reconnect.
  await current.subscribe(channel, onMessage).catch((error: unknown) => {
    throw redis.unavailable('subscribing to routed messages', describeError(error), error);
  });
  return async () => {
    await current.unsubscribe(channel, onMessage).catch(() => {});
  };
}

export async function getFingerprints(redis: RedisConnections): Promise<Map<string, string>> {
  const flat = await redis.call<string[]>('reading the tool fingerprints', [
    'HGETALL',
    redis.keys.fingerprints,
  ]);
  const accepted = new Map<string, string>();
  for (let index = 0; index + 1 < flat.length; index += 2) {
    accepted.set(String(flat[index]), String(flat[index + 1]));
  }
  return accepted;
}

export async function putFingerprints(
  redis: RedisConnections,
  accepted: ReadonlyMap<string, string>,
): Promise<void> {
  const flat = [...accepted].flat();
  await redis.call('writing the tool fingerprints', [
    'EVAL',
    REPLACE_HASH_SCRIPT,
    1,
    redis.keys.fingerprints,
    REPLACE_HASH_CHUNK,
    ...flat,
  ]);
}
