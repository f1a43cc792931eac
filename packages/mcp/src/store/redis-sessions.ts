import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { entriesOf, type RedisConnections, type Reply } from './redis-connection.js';
import { ADMIT_SCRIPT, TOUCH_SCRIPT } from './redis-keys.js';
import type { GatewayStore, StoredSession, StoreSessionLimits } from './types.js';

// The session half of the Redis store: sessions, their caps, approvals and stream events.

export async function putSession(
  redis: RedisConnections,
  session: StoredSession,
  ttlMs: number,
): Promise<void> {
  const ttl = ttlMs > 0 ? ['PX', ttlMs] : [];
  await redis.call('storing the session', [
    'SET',
    redis.keys.session(session.id),
    JSON.stringify(session),
    ...ttl,
  ]);
}

export async function getSession(
  redis: RedisConnections,
  id: string,
): Promise<StoredSession | undefined> {
  const raw = await redis.call<string | null>('reading the session', [
    'GET',
    redis.keys.session(id),
  ]);
  return raw === null ? undefined : (JSON.parse(raw) as StoredSession);
}

export async function touchSession(
  redis: RedisConnections,
  id: string,
  principal: string,
  ttlMs: number,
): Promise<boolean> {
  const alive = await redis.call('touching the session', [
    'EVAL',
    TOUCH_SCRIPT,
    6,
    ...redis.sessionKeys(id, principal),
    ttlMs,
    Date.now(),
    id,
  ]);
  return Number(alive) === 1;
}

export async function deleteSession(
  redis: RedisConnections,
  id: string,
  principal: string,
): Promise<void> {
  await redis.call('deleting the session', [
    'EVAL',
    "redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4]) redis.call('ZREM', KEYS[5], ARGV[1]) redis.call('ZREM', KEYS[6], ARGV[1]) return 1",
    6,
    ...redis.sessionKeys(id, principal),
    id,
  ]);
}

export async function admitSession(
  redis: RedisConnections,
  id: string,
  principal: string,
  limits: StoreSessionLimits,
): ReturnType<GatewayStore['admitSession']> {
  const reply = await redis.call<Reply[]>('counting the session under the caps', [
    'EVAL',
    ADMIT_SCRIPT,
    2,
    redis.keys.capsOf(principal),
    redis.keys.capsAll,
    Date.now(),
    limits.idleMs,
    limits.maxPerPrincipal,
    limits.maxSessions,
    id,
  ]);
  const [verdict, held] = reply as [number, number];
  if (verdict === 0) return { ok: true };
  return { ok: false, scope: verdict === 1 ? 'principal' : 'all', held: Number(held) };
}

export async function hasApproval(
  redis: RedisConnections,
  sessionId: string,
  key: string,
): Promise<boolean> {
  return (
    Number(
      await redis.call('reading the approvals', [
        'SISMEMBER',
        redis.keys.approvals(sessionId),
        key,
      ]),
    ) === 1
  );
}

export async function rememberApproval(
  redis: RedisConnections,
  sessionId: string,
  key: string,
): Promise<void> {
  await redis.writeWithSession(
    'storing the approval',
    "redis.call('SADD', KEYS[2], ARGV[1])",
    sessionId,
    redis.keys.approvals(sessionId),
    [key],
  );
}

export async function appendEvent(
  redis: RedisConnections,
  sessionId: string,
  streamId: string,
  message: JSONRPCMessage,
): Promise<string> {
  return String(
    await redis.writeWithSession(
      'storing the stream event',
      "local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', 'stream', ARGV[2], 'message', ARGV[3])",
      sessionId,
      redis.keys.events(sessionId),
      [redis.eventsPerSession, streamId, JSON.stringify(message)],
      'id',
    ),
  );
}

export async function eventsAfter(
  redis: RedisConnections,
  sessionId: string,
  eventId: string,
): ReturnType<GatewayStore['eventsAfter']> {
  if (!/^\d+-\d+$/.test(eventId)) return undefined;
  const key = redis.keys.events(sessionId);
  const [first] = entriesOf(
    await redis.call('reading the stream events', ['XRANGE', key, eventId, eventId]),
  );
  const streamId = first?.fields.get('stream');
  if (streamId === undefined) return undefined;
  const after = entriesOf(
    await redis.call('reading the stream events', ['XRANGE', key, `(${eventId}`, '+']),
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
}
