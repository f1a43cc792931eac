import { createClient } from '@redis/client';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { EXPIRE_WITH_SESSION, redisKeys } from './redis-keys.js';
import { DEFAULT_AUDIT_MAX_RECORDS, DEFAULT_EVENTS_PER_SESSION } from './types.js';

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

export type Reply = string | number | null | Reply[];

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
export type RedisClient = ReturnType<typeof openClient>;

/**
 * The connections of one Redis store (the main one, and on demand one for blocking
 * reads and one for subscriptions), its settings, and the one way to send a command.
 */
export class RedisConnections {
  readonly keys: ReturnType<typeof redisKeys>;
  readonly maxAudit: number;
  readonly eventsPerSession: number;
  readonly commandTimeoutMs: number;
  readonly main: RedisClient;
  private lastError = 'not connected yet';
  private closed = false;
  private subscriber: RedisClient | undefined;
  private blocking: RedisClient | undefined;

  constructor(
    private readonly options: RedisStoreOptions,
    readonly location: string,
  ) {
    this.keys = redisKeys(options.prefix ?? 'tool-search:');
    this.maxAudit = options.maxAuditRecords ?? DEFAULT_AUDIT_MAX_RECORDS;
    this.eventsPerSession = options.eventsPerSession ?? DEFAULT_EVENTS_PER_SESSION;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 2_000;
    this.main = this.open('main');
  }

  /** The connection of blocking reads: a blocking read holds its connection. */
  blockingClient(): RedisClient {
    this.blocking ??= this.open('blocking');
    return this.blocking;
  }

  subscriberClient(): RedisClient {
    this.subscriber ??= this.open('subscriber');
    return this.subscriber;
  }

  unavailable(what: string, detail: string, cause?: unknown): ToolSearchError {
    return new ToolSearchError(
      'store_unavailable',
      `The gateway's store (${this.location}) is unavailable: ${what} failed (${detail}). Nothing was kept in memory instead; try again in a few seconds.`,
      { ...(cause === undefined ? {} : { cause }), data: { field: 'store' } },
    );
  }

  /** The keys of a session and of its place under the caps, in the order the scripts take them. */
  sessionKeys(id: string, principal: string): string[] {
    const keys = this.keys;
    return [
      keys.session(id),
      keys.approvals(id),
      keys.events(id),
      keys.questions(id),
      keys.capsOf(principal),
      keys.capsAll,
    ];
  }

  /**
   * Runs the script `body` on a key of a session (its KEYS[2]), which then expires with
   * the session's record (KEYS[1]); answers the script's `result`.
   */
  writeWithSession<T = Reply>(
    what: string,
    body: string,
    sessionId: string,
    key: string,
    args: (string | number)[],
    result?: string,
  ): Promise<T> {
    return this.call<T>(what, [
      'EVAL',
      EXPIRE_WITH_SESSION(body, result),
      2,
      this.keys.session(sessionId),
      key,
      ...args,
    ]);
  }

  /** Sends a command on the main connection. */
  call<T = Reply>(what: string, command: (string | number)[]): Promise<T> {
    return this.run<T>(what, this.main, command);
  }

  /** Sends a command; rejects `store_unavailable` at once while down, or after the timeout. */
  async run<T>(what: string, on: RedisClient, command: (string | number)[]): Promise<T> {
    if (this.closed) throw this.unavailable(what, 'the store is closed');
    if (!on.isReady) throw this.unavailable(what, this.lastError);
    let timer: NodeJS.Timeout | undefined;
    try {
      return (await Promise.race([
        on.sendCommand(command.map(String)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${this.commandTimeoutMs} ms`)),
            this.commandTimeoutMs,
          );
        }),
      ])) as T;
    } catch (error) {
      throw this.unavailable(what, describeError(error), error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits (up to `ms`) for a client that is still connecting. */
  async readyWithin(on: RedisClient, ms: number): Promise<void> {
    if (on.isReady || this.closed) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      on.once('ready', () => resolve());
    });
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A blocking read may wait seconds more for a record: cut it off.
    if (this.blocking?.isOpen) this.blocking.destroy();
    await Promise.allSettled(
      [this.main, this.subscriber]
        .filter((each) => each !== undefined)
        .map((each) => (each.isOpen ? each.close() : Promise.resolve())),
    );
  }

  private open(role: 'main' | 'blocking' | 'subscriber'): RedisClient {
    const client = openClient(this.options.url);
    client.on('error', (error: unknown) => {
      this.lastError = describeError(error);
    });
    if (role === 'main') this.reportStatus(client);
    client.connect().catch((error: unknown) => {
      this.lastError = describeError(error);
    });
    return client;
  }

  private reportStatus(client: RedisClient): void {
    let wasReady = false;
    client.on('ready', () => {
      wasReady = true;
      this.options.onStatus?.({ state: 'ready' });
    });
    client.on('end', () => {});
    client.on('reconnecting', () => {
      if (wasReady) this.options.onStatus?.({ state: 'down', detail: this.lastError });
      wasReady = false;
    });
  }
}

/** Reads a stream reply (`[[id, [field, value, ...]], ...]`) into entries. */
export function entriesOf(reply: Reply): { id: string; fields: Map<string, string> }[] {
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
