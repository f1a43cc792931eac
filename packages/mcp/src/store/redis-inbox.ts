import type { RedisConnections } from './redis-connection.js';
import type { PendingApproval } from './types.js';

// The console's approvals inbox in Redis: one hash, question id → the waiting call.
// And its ended sign-ins.

export async function putPendingApproval(
  redis: RedisConnections,
  pending: PendingApproval,
): Promise<void> {
  await redis.call('listing the call in the approvals inbox', [
    'HSET',
    redis.keys.pendingApprovals,
    pending.id,
    JSON.stringify(pending),
  ]);
}

function readPending(text: unknown): PendingApproval | undefined {
  try {
    const value = JSON.parse(String(text)) as PendingApproval;
    return typeof value?.id === 'string' && typeof value.expiresAt === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function listPendingApprovals(redis: RedisConnections): Promise<PendingApproval[]> {
  const flat = await redis.call<string[]>('reading the approvals inbox', [
    'HGETALL',
    redis.keys.pendingApprovals,
  ]);
  const now = Date.now();
  const live: PendingApproval[] = [];
  const stale: string[] = [];
  for (let index = 0; index + 1 < flat.length; index += 2) {
    const pending = readPending(flat[index + 1]);
    // A replica that stopped leaves its questions behind: they go once they expire.
    if (pending === undefined || pending.expiresAt <= now) stale.push(String(flat[index]));
    else live.push(pending);
  }
  if (stale.length > 0) {
    await redis.call('pruning the approvals inbox', [
      'HDEL',
      redis.keys.pendingApprovals,
      ...stale,
    ]);
  }
  return live.sort((a, b) => a.askedAt - b.askedAt);
}

export async function removePendingApproval(redis: RedisConnections, id: string): Promise<void> {
  await redis.call('taking the call off the approvals inbox', [
    'HDEL',
    redis.keys.pendingApprovals,
    id,
  ]);
}

// The console's ended sign-ins: one key each, expiring when the sign-in would have.

export async function revokeSignIn(
  redis: RedisConnections,
  id: string,
  expiresAt: number,
): Promise<void> {
  const ttl = Math.ceil(expiresAt - Date.now());
  if (ttl <= 0) return;
  await redis.call('ending the console sign-in', [
    'SET',
    redis.keys.revokedSignIn(id),
    '1',
    'PX',
    String(ttl),
  ]);
}

export async function isSignInRevoked(redis: RedisConnections, id: string): Promise<boolean> {
  const found = await redis.call<number>('reading the ended console sign-ins', [
    'EXISTS',
    redis.keys.revokedSignIn(id),
  ]);
  return Number(found) > 0;
}

// The tools an operator switched off: one set of review keys.

export async function switchTool(
  redis: RedisConnections,
  key: string,
  off: boolean,
): Promise<void> {
  await redis.call(off ? 'switching the tool off' : 'switching the tool on', [
    off ? 'SADD' : 'SREM',
    redis.keys.switchedOff,
    key,
  ]);
}

export async function switchedOffTools(redis: RedisConnections): Promise<Set<string>> {
  const keys = await redis.call<string[]>('reading the tools switched off', [
    'SMEMBERS',
    redis.keys.switchedOff,
  ]);
  return new Set(keys.map(String));
}
