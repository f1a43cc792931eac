/** The names of a Redis store's keys and channel, under one prefix. */
export interface RedisKeys {
  session(id: string): string;
  approvals(id: string): string;
  events(id: string): string;
  questions(id: string): string;
  capsOf(principal: string): string;
  capsAll: string;
  audit: string;
  fingerprints: string;
  /** The console's approvals inbox: question id → the waiting call (JSON). */
  pendingApprovals: string;
  /** The review keys of the tools an operator switched off (a set). */
  switchedOff: string;
  /** A console sign-in that was ended (expires when the sign-in would have). */
  revokedSignIn(id: string): string;
  /** The channel of the answers to one replica's questions. */
  routedTo(replica: string): string;
  /** The prefix of the learned terms' keys (see redis-learning-scripts.ts). */
  learning: string;
  /** A one-time token (`claimOnce`). */
  once(key: string): string;
  /** A grant for a stated time (`putGrant`). */
  grant(key: string): string;
}

/**
 * The keys of a Redis store. A session id or principal cannot reach outside its key:
 * each is the last part of its key.
 *
 * @param prefix - the prefix of every key, e.g. `tool-search:`
 * @returns the key names
 * @throws nothing
 */
export function redisKeys(prefix: string): RedisKeys {
  return {
    session: (id) => `${prefix}session:${id}`,
    approvals: (id) => `${prefix}approvals:${id}`,
    events: (id) => `${prefix}events:${id}`,
    questions: (id) => `${prefix}questions:${id}`,
    capsOf: (principal) => `${prefix}caps:p:${principal}`,
    capsAll: `${prefix}caps:all`,
    audit: `${prefix}audit`,
    fingerprints: `${prefix}fingerprints`,
    pendingApprovals: `${prefix}pending-approvals`,
    revokedSignIn: (id) => `${prefix}console-signout:${id}`,
    switchedOff: `${prefix}switched-off`,
    routedTo: (replica) => `${prefix}routed:${replica}`,
    learning: `${prefix}learning:`,
    once: (key) => `${prefix}once:${key}`,
    grant: (key) => `${prefix}grant:${key}`,
  };
}

/**
 * Admits a session under the caps in one step, so that two replicas never both take
 * the last place. KEYS: the principal's sorted set, the set of all; ARGV: now, idle ms
 * (0: never idle out), the cap per principal, the cap in all, the session id.
 * Returns `{0}` admitted, `{1, held}` at the principal's cap, `{2, held}` at the cap in all.
 */
export const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local idle = tonumber(ARGV[2])
if idle > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - idle)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - idle)
end
local mine = redis.call('ZCARD', KEYS[1])
if mine >= tonumber(ARGV[3]) then return {1, mine} end
local all = redis.call('ZCARD', KEYS[2])
if all >= tonumber(ARGV[4]) then return {2, all} end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('ZADD', KEYS[2], now, ARGV[5])
return {0, mine + 1}
`;

/**
 * A script that runs `body` on a session's key KEYS[2], then gives that key the
 * remaining lifetime of the session's record KEYS[1], so that it expires with the
 * session. Returns `result` (a Lua expression), or 1.
 */
export const EXPIRE_WITH_SESSION = (body: string, result = '1'): string =>
  `${body} local ttl = redis.call('PTTL', KEYS[1]) if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end return ${result}`;

/**
 * Restarts a session's idle clock. KEYS: the session, its approvals, its events, its
 * open questions, the principal's and the overall caps sets; ARGV: ttl ms (0: no
 * expiry), now, the id. Returns 1 when the session exists, 0 when it is gone.
 */
export const TOUCH_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(ARGV[1]) > 0 then
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
redis.call('ZADD', KEYS[5], 'XX', ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[6], 'XX', ARGV[2], ARGV[3])
return 1
`;

/**
 * Hands a client's answer to the replica that asked its question, and closes the
 * question, in one step. KEYS: the session's open questions; ARGV: the answer's id,
 * the routed message (JSON), the prefix of the replicas' channels. Returns 1 when
 * the replica that asked heard it, 2 when no replica listens on its channel any more,
 * 0 when no open question of the session has that id.
 */
export const ROUTE_ANSWER_SCRIPT = `
local replica = redis.call('HGET', KEYS[1], ARGV[1])
if not replica then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('PUBLISH', ARGV[3] .. replica, ARGV[2]) > 0 then return 1 end
return 2
`;

/**
 * How many field-value pairs one `HSET` of {@link REPLACE_HASH_SCRIPT} takes: Lua's
 * `unpack` fails past about 8,000 values (LUAI_MAXCSTACK), so a long list goes in
 * slices well below it.
 */
export const REPLACE_HASH_CHUNK = 500;

/**
 * Replaces a hash with the pairs in ARGV[2..], in one step (no replica reads half a
 * list), writing ARGV[1] pairs per `HSET`. KEYS: the hash. Returns the pairs written.
 */
export const REPLACE_HASH_SCRIPT = `
redis.call('DEL', KEYS[1])
local step = tonumber(ARGV[1]) * 2
local last = #ARGV
for first = 2, last, step do
  redis.call('HSET', KEYS[1], unpack(ARGV, first, math.min(first + step - 1, last)))
end
return (last - 1) / 2
`;
