import type { ServerResponse } from 'node:http';
import type { AuditEntry, GatewayActivity, GatewayStore } from '@tool-search/mcp';

/** One line of the console's activity feed. */
export interface ConsoleActivity {
  /** The audit entry's id, or a local one for searches and descriptions. */
  id: string;
  /** When it began (ISO 8601). */
  time: string;
  /** `call`, `search` or `describe`. */
  kind: GatewayActivity['kind'];
  /** The real tool (never `tool_call`). */
  tool: string;
  /** `server/name` of the upstream tool, when known. */
  origin?: string;
  sessionId?: string;
  /** The token's profile (the token label), when it has one. */
  profile?: string;
  via?: string;
  /** The program that made the call (`via: 'program'`). */
  programId?: string;
  /** `ok`, `tool_error`, `denied`, `error`, `cancelled` (calls); `ok` or `error` (bridge). */
  status: string;
  /** Why it was denied or failed. */
  detail?: string;
  durationMs: number;
  /**
   * The approval step of a call that reached one: the decision (or `remembered`), and
   * when an adapter answered, when, who (an operator's principal) and how long the call
   * waited (`durationMs` less `waitMs` is the gateway's and the tool's time).
   */
  approval?: { decision: string; at?: string; by?: string; waitMs?: number };
  /** The arguments as they ran, rendered and bounded (with `console.callDetails`). */
  arguments?: string;
  /** The start of the result, escaped and bounded (with `console.callDetails`). */
  result?: string;
  /** Which replica served it. */
  replica?: string;
}

/** The activity line of an audit entry (undefined for an unreadable one). */
export function activityOfAudit(entry: AuditEntry): ConsoleActivity | undefined {
  const { record } = entry;
  if (record === undefined) return undefined;
  // The dispatcher's `ok` of a tool that answered an error is a failed call here.
  const toolError = record.status === 'ok' && typeof record.toolError === 'string';
  const detail = record.reason ?? record.error ?? (toolError ? record.toolError : undefined);
  return {
    id: entry.id,
    time: record.startedAt,
    kind: 'call',
    tool: record.tool,
    ...(record.origin === undefined
      ? {}
      : { origin: `${record.origin.server}/${record.origin.name}` }),
    ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
    ...(record.profile === undefined ? {} : { profile: record.profile }),
    via: record.via,
    ...(record.programId === undefined ? {} : { programId: record.programId }),
    status: toolError ? 'tool_error' : record.status,
    ...(detail === undefined || detail === '' ? {} : { detail }),
    durationMs: Math.round(record.durationMs),
    ...(record.approval === undefined
      ? {}
      : { approval: { decision: record.approval, ...record.approvalAnswer } }),
    ...(record.shownArguments === undefined ? {} : { arguments: record.shownArguments }),
    ...(record.resultExcerpt === undefined ? {} : { result: record.resultExcerpt }),
    replica: record.replica,
  };
}

/** How many of its own searches and descriptions a replica keeps for the feed. */
const LOCAL_LINES = 200;

/**
 * The live feed: follows the store's audit trail (the calls of every replica) while a
 * console listens, and adds this replica's searches and descriptions; each line goes
 * to every open event stream.
 */
export class ConsoleFeed {
  private readonly streams = new Set<ServerResponse>();
  /** This replica's latest searches and descriptions (the audit trail has only calls). */
  private readonly local: ConsoleActivity[] = [];
  private following = false;
  private localSequence = 0;

  constructor(private readonly store: GatewayStore) {}

  /** The latest `count` lines (calls of every replica, this one's searches), oldest first. */
  async recent(count: number): Promise<ConsoleActivity[]> {
    const entries = await this.store.readAudit({ count });
    const calls = entries.flatMap((entry) => activityOfAudit(entry) ?? []);
    return [...calls, ...this.local]
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
      .slice(-count);
  }

  /** Opens an event stream on a response; it ends when the client goes. */
  open(res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(': console feed\n\n');
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
    if (!this.following) void this.follow();
  }

  /** A search or description of this replica (calls come from the audit trail). */
  record(activity: GatewayActivity): void {
    if (activity.kind === 'call') return;
    this.localSequence += 1;
    const line: ConsoleActivity = {
      id: `local-${this.localSequence}`,
      time: new Date().toISOString(),
      kind: activity.kind,
      tool: activity.name,
      sessionId: activity.sessionId,
      ...(activity.profile === undefined ? {} : { profile: activity.profile }),
      status: activity.status,
      ...(activity.detail === undefined ? {} : { detail: activity.detail }),
      durationMs: activity.durationMs,
    };
    this.local.push(line);
    if (this.local.length > LOCAL_LINES) this.local.shift();
    this.send(line);
  }

  /** Ends every stream. */
  close(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  private send(line: ConsoleActivity): void {
    const event = `event: activity\ndata: ${JSON.stringify(line)}\n\n`;
    for (const res of this.streams) res.write(event);
  }

  private async follow(): Promise<void> {
    this.following = true;
    try {
      let after = (await this.store.readAudit({ count: 1 })).at(-1)?.id ?? '0';
      while (this.streams.size > 0) {
        const entries = await this.store.readAudit({ after, count: 100, blockMs: 1000 });
        for (const entry of entries) {
          after = entry.id;
          const line = activityOfAudit(entry);
          if (line !== undefined) this.send(line);
        }
      }
    } catch {
      // The store is down: the streams end, and the page reconnects.
      this.close();
    } finally {
      this.following = false;
    }
  }
}
