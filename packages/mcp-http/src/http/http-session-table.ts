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
export function createSessionTable<T extends TableEntry>(limits: SessionLimits): SessionTable<T> {
  return new HttpSessionTable<T>(limits);
}

interface SessionLimits {
  maxSessions: number;
  maxPerPrincipal: number;
}

const isIdle = (entry: TableEntry) => entry.activity.inFlight === 0;

class HttpSessionTable<T extends TableEntry> implements SessionTable<T> {
  // Insertion order is opening order: the first idle entry found is the oldest.
  private readonly sessions = new Map<string, T>();
  private readonly counts = new Map<string, number>();

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): T | undefined {
    return this.sessions.get(id);
  }

  entries(): IterableIterator<[string, T]> {
    return this.sessions.entries();
  }

  admit(principal: string, describe: (principal: string) => string): Admission {
    const evicted: string[] = [];
    const held = this.counts.get(principal) ?? 0;
    if (held >= this.limits.maxPerPrincipal) {
      const oldest = this.oldestIdleOf(principal);
      if (oldest === undefined) return this.refuseForPrincipal(principal, held, describe);
      this.evict(oldest);
      evicted.push(oldest);
    }
    if (this.sessions.size >= this.limits.maxSessions) {
      const victim = this.globalVictim(principal);
      if (victim === undefined) return { ok: false, message: this.busyMessage() };
      this.evict(victim);
      evicted.push(victim);
    }
    return { ok: true, evicted };
  }

  add(id: string, entry: T): void {
    this.sessions.set(id, entry);
    this.counts.set(entry.principal, (this.counts.get(entry.principal) ?? 0) + 1);
  }

  delete(id: string): boolean {
    return this.forget(id) !== undefined;
  }

  sweep(idleMs: number): void {
    const now = Date.now();
    for (const [id, entry] of this.sessions) {
      if (isIdle(entry) && now - entry.activity.lastSeen > idleMs) this.evict(id);
    }
  }

  idleExpiry(idleMs: number, sweepEveryMs: number): number | undefined {
    const now = Date.now();
    let soonest: number | undefined;
    for (const { activity } of this.sessions.values()) {
      if (activity.inFlight > 0) continue;
      const left = Math.max(0, activity.lastSeen + idleMs - now) + sweepEveryMs;
      soonest = soonest === undefined ? left : Math.min(soonest, left);
    }
    return soonest;
  }

  private refuseForPrincipal(
    principal: string,
    held: number,
    describe: (principal: string) => string,
  ): Admission {
    const { maxPerPrincipal, maxSessions } = this.limits;
    // With a single cap (one principal), the global message says it all.
    return maxPerPrincipal < maxSessions
      ? {
          ok: false,
          message: `Too many sessions for ${describe(principal)}: it has ${held} sessions open (the most one token may hold is ${maxPerPrincipal}), all busy with a request or an open stream. Close one (DELETE it) and try again.`,
        }
      : { ok: false, message: this.busyMessage() };
  }

  /**
   * At the global cap: the biggest holder gives way first, as long as it holds at least
   * two more than the newcomer (so that two tokens never take turns pushing each other
   * out); else the newcomer's own oldest idle session goes.
   */
  private globalVictim(principal: string): string | undefined {
    const mine = this.counts.get(principal) ?? 0;
    const holders = [...this.counts].filter(
      ([holder, count]) => holder !== principal && count > mine + 1,
    );
    holders.sort((a, b) => b[1] - a[1]);
    for (const [holder] of holders) {
      const victim = this.oldestIdleOf(holder);
      if (victim !== undefined) return victim;
    }
    return this.oldestIdleOf(principal);
  }

  private busyMessage(): string {
    return `Too many sessions (${this.limits.maxSessions}): every session that could make room is busy with a request or an open stream. Close one and try again.`;
  }

  /** The least recently used idle session of `principal`. */
  private oldestIdleOf(principal: string): string | undefined {
    let found: [string, number] | undefined;
    for (const [id, entry] of this.sessions) {
      if (entry.principal !== principal || !isIdle(entry)) continue;
      if (found === undefined || entry.activity.lastSeen < found[1]) {
        found = [id, entry.activity.lastSeen];
      }
    }
    return found?.[0];
  }

  private forget(id: string): T | undefined {
    const entry = this.sessions.get(id);
    if (entry === undefined) return undefined;
    this.sessions.delete(id);
    const left = (this.counts.get(entry.principal) ?? 1) - 1;
    if (left > 0) this.counts.set(entry.principal, left);
    else this.counts.delete(entry.principal);
    return entry;
  }

  private evict(id: string): void {
    // Gone from the table at once: from now on its id gets 404.
    this.forget(id)?.close();
  }
}
