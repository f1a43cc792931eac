import type { ServerResponse } from 'node:http';

/** What the idle sweep and eviction need of a session. */
export interface SessionActivity {
  /** Requests handled whose response has not closed (an open GET stream counts). */
  inFlight: number;
  /** When a request last arrived or finished (`Date.now()`). */
  lastSeen: number;
}

/** A session as the table keeps it. */
export interface TableEntry {
  /** Who opened it: the token's principal ('' when no token is required). */
  principal: string;
  activity: SessionActivity;
  /** Closes the session (its transport); the table has already forgotten it. */
  close(): void;
}

/** Whether a new session may open, and which idle sessions it pushed out. */
export type Admission =
  | { ok: true; evicted: string[] }
  | { ok: false; message: string; retryAfterMs?: number };

/**
 * The open HTTP sessions with their caps: at most `maxSessions` in all and
 * `maxPerPrincipal` per token. A token at its cap makes room by closing its own
 * oldest idle session; at the global cap, the oldest idle session of the token
 * holding the most sessions goes (if it holds at least two more than the newcomer),
 * else the newcomer's own oldest idle one.
 */
export interface SessionTable<T extends TableEntry> {
  get(id: string): T | undefined;
  /** Every session, in the order they opened. */
  entries(): IterableIterator<[string, T]>;
  readonly size: number;
  /**
   * Makes room for a new session of `principal`, evicting idle sessions as needed.
   *
   * @param principal - the newcomer's principal
   * @param describe - names the principal for a message (e.g. "profile 'alice'")
   * @returns whether it may open, and the ids it evicted
   * @throws nothing
   */
  admit(principal: string, describe: (principal: string) => string): Admission;
  /** Adds a session (after {@link SessionTable.admit} said yes). */
  add(id: string, entry: T): void;
  /** Forgets a session (it closed on its own). */
  delete(id: string): boolean;
  /** Closes and forgets every session idle for longer than `idleMs`. */
  sweep(idleMs: number): void;
  /** Milliseconds until the sweep closes the first idle session, if any is idle. */
  idleExpiry(idleMs: number, sweepEveryMs: number): number | undefined;
}

/** Counts a request against a session until its response closes. */
export function trackActivity(activity: SessionActivity, res: ServerResponse): void {
  activity.inFlight += 1;
  activity.lastSeen = Date.now();
  res.once('close', () => {
    activity.inFlight -= 1;
    activity.lastSeen = Date.now();
  });
}

/**
 * Creates the session table of an HTTP listener.
 *
 * @param limits.maxSessions - the most sessions in all
 * @param limits.maxPerPrincipal - the most sessions one principal (token) holds
 * @returns an empty table
 * @throws nothing
 */
export function createSessionTable<T extends TableEntry>(limits: {
  maxSessions: number;
  maxPerPrincipal: number;
}): SessionTable<T> {
  // Insertion order is opening order: the first idle entry found is the oldest.
  const sessions = new Map<string, T>();
  const counts = new Map<string, number>();

  const forget = (id: string): T | undefined => {
    const entry = sessions.get(id);
    if (entry === undefined) return undefined;
    sessions.delete(id);
    const left = (counts.get(entry.principal) ?? 1) - 1;
    if (left > 0) counts.set(entry.principal, left);
    else counts.delete(entry.principal);
    return entry;
  };
  const evict = (id: string) => {
    // Gone from the table at once: from now on its id gets 404.
    forget(id)?.close();
  };
  const busyMessage = () =>
    `Too many sessions (${limits.maxSessions}): every session that could make room is busy with a request or an open stream. Close one and try again.`;
  const isIdle = (entry: T) => entry.activity.inFlight === 0;
  /** The least recently used idle session of `principal`. */
  const oldestIdleOf = (principal: string): string | undefined => {
    let found: [string, number] | undefined;
    for (const [id, entry] of sessions) {
      if (entry.principal !== principal || !isIdle(entry)) continue;
      if (found === undefined || entry.activity.lastSeen < found[1])
        found = [id, entry.activity.lastSeen];
    }
    return found?.[0];
  };

  return {
    get: (id) => sessions.get(id),
    entries: () => sessions.entries(),
    get size() {
      return sessions.size;
    },
    admit(principal, describe) {
      const evicted: string[] = [];
      const held = counts.get(principal) ?? 0;
      if (held >= limits.maxPerPrincipal) {
        const oldest = oldestIdleOf(principal);
        if (oldest === undefined) {
          // With a single cap (one principal), the global message says it all.
          return limits.maxPerPrincipal < limits.maxSessions
            ? {
                ok: false,
                message: `Too many sessions for ${describe(principal)}: it has ${held} sessions open (the most one token may hold is ${limits.maxPerPrincipal}), all busy with a request or an open stream. Close one (DELETE it) and try again.`,
              }
            : { ok: false, message: busyMessage() };
        }
        evict(oldest);
        evicted.push(oldest);
      }
      if (sessions.size >= limits.maxSessions) {
        // The biggest holder gives way first, as long as it holds at least two more than
        // the newcomer (so that two tokens never take turns pushing each other out);
        // else the newcomer's own oldest idle session goes.
        const mine = counts.get(principal) ?? 0;
        const holders = [...counts].filter(
          ([holder, count]) => holder !== principal && count > mine + 1,
        );
        holders.sort((a, b) => b[1] - a[1]);
        let victim: string | undefined;
        for (const [holder] of holders) {
          victim = oldestIdleOf(holder);
          if (victim !== undefined) break;
        }
        victim ??= oldestIdleOf(principal);
        if (victim === undefined) {
          return { ok: false, message: busyMessage() };
        }
        evict(victim);
        evicted.push(victim);
      }
      return { ok: true, evicted };
    },
    add(id, entry) {
      sessions.set(id, entry);
      counts.set(entry.principal, (counts.get(entry.principal) ?? 0) + 1);
    },
    delete: (id) => forget(id) !== undefined,
    sweep(idleMs) {
      const now = Date.now();
      for (const [id, entry] of sessions) {
        if (isIdle(entry) && now - entry.activity.lastSeen > idleMs) evict(id);
      }
    },
    idleExpiry(idleMs, sweepEveryMs) {
      const now = Date.now();
      let soonest: number | undefined;
      for (const { activity } of sessions.values()) {
        if (activity.inFlight > 0) continue;
        const left = Math.max(0, activity.lastSeen + idleMs - now) + sweepEveryMs;
        soonest = soonest === undefined ? left : Math.min(soonest, left);
      }
      return soonest;
    },
  };
}
