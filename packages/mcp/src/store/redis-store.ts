import { ToolSearchError } from '@tool-search/core';
import { RedisConnections, type RedisStoreOptions } from './redis-connection.js';
import * as inbox from './redis-inbox.js';
import { createRedisLearningStore } from './redis-learning.js';
import * as sessions from './redis-sessions.js';
import * as shared from './redis-shared.js';
import type { GatewayStore } from './types.js';

export type { RedisStoreOptions } from './redis-connection.js';

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
 * about `maxAuditRecords`), `fingerprints` (a hash), `console-signout:<id>` (an ended console sign-in, until it
 * would have expired), `switched-off` (a set of review keys), the learned terms under `learning:` (with learning on); channels `routed:<replica>`, one per replica.
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
  const redis = new RedisConnections(options, redactRedisUrl(options.url));
  return {
    specificationVersion: 'v1',
    kind: 'redis',
    shared: true,
    location: redis.location,
    async ping() {
      await redis.call('PING', ['PING']);
    },
    putSession: (session, ttlMs) => sessions.putSession(redis, session, ttlMs),
    getSession: (id) => sessions.getSession(redis, id),
    touchSession: (id, principal, ttlMs) => sessions.touchSession(redis, id, principal, ttlMs),
    deleteSession: (id, principal) => sessions.deleteSession(redis, id, principal),
    admitSession: (id, principal, limits) => sessions.admitSession(redis, id, principal, limits),
    hasApproval: (sessionId, key) => sessions.hasApproval(redis, sessionId, key),
    rememberApproval: (sessionId, key) => sessions.rememberApproval(redis, sessionId, key),
    async claimOnce(key, ttlMs) {
      const set = await redis.call('claiming a one-time token', [
        'SET',
        redis.keys.once(key),
        '1',
        'NX',
        'PX',
        Math.max(1, Math.ceil(ttlMs)),
      ]);
      return set !== null;
    },
    async putGrant(key, ttlMs) {
      await redis.call('storing a grant', [
        'SET',
        redis.keys.grant(key),
        '1',
        'PX',
        Math.max(1, Math.ceil(ttlMs)),
      ]);
    },
    hasGrant: async (key) =>
      Number(await redis.call('reading a grant', ['EXISTS', redis.keys.grant(key)])) === 1,
    appendEvent: (sessionId, streamId, message) =>
      sessions.appendEvent(redis, sessionId, streamId, message),
    eventsAfter: (sessionId, eventId) => sessions.eventsAfter(redis, sessionId, eventId),
    appendAudit: (record) => shared.appendAudit(redis, record),
    readAudit: (readOptions) => shared.readAudit(redis, readOptions),
    openQuestion: (question) => shared.openQuestion(redis, question),
    closeQuestion: (sessionId, questionId) => shared.closeQuestion(redis, sessionId, questionId),
    routeAnswer: (routed) => shared.routeAnswer(redis, routed),
    subscribe: (replica, listener) => shared.subscribe(redis, replica, listener),
    putPendingApproval: (pending) => inbox.putPendingApproval(redis, pending),
    listPendingApprovals: () => inbox.listPendingApprovals(redis),
    removePendingApproval: (id) => inbox.removePendingApproval(redis, id),
    getFingerprints: () => shared.getFingerprints(redis),
    putFingerprints: (accepted) => shared.putFingerprints(redis, accepted),
    revokeSignIn: (id, expiresAt) => inbox.revokeSignIn(redis, id, expiresAt),
    isSignInRevoked: (id) => inbox.isSignInRevoked(redis, id),
    switchTool: (key, off) => inbox.switchTool(redis, key, off),
    switchedOffTools: () => inbox.switchedOffTools(redis),
    learningStore: (learningOptions) => createRedisLearningStore(redis, learningOptions),
    close: () => redis.close(),
  };
}
