import type { ToolDefinition } from '@tool-search/core';
import { type CallQueue, createCallQueue } from './call-queue.js';
import type { UpstreamEra } from './client.js';
import type { UpstreamConnection, UpstreamServerInput, UpstreamTransportKind } from './connect.js';
import type { HeaderTool } from './input-required.js';
import type { CutTool } from './limits.js';
import type { RejectedTool, UpstreamServerStatus, UpstreamState } from './pool-types.js';
import type { HeldTool, ToolFingerprint } from './review.js';

// The pool's record of one upstream server, and its status as `status()` reports it.

/**
 * A failed server keeps its last known tools listed: names stay stable (no other tool is
 * renamed by its going), and a call of one of them is what starts a retry.
 */
export const LISTED_STATES: ReadonlySet<UpstreamState> = new Set<UpstreamState>([
  'ready',
  'reconnecting',
  'failed',
]);

/** One upstream server as the pool tracks it. */
export interface Upstream {
  name: string;
  config: UpstreamServerInput;
  state: UpstreamState;
  connection?: UpstreamConnection | undefined;
  transport?: UpstreamTransportKind;
  tools: ToolDefinition[];
  /** Every accepted definition; `tools` without the held ones. */
  listed: ToolDefinition[];
  fingerprints: Map<string, string>;
  held: HeldTool[];
  cut: CutTool[];
  ignoredPins: string[];
  rejected: RejectedTool[];
  error?: string;
  connectMs?: number;
  attempts: number;
  generation: number;
  listing: Promise<void>;
  refreshTimer?: NodeJS.Timeout | undefined;
  /** When the pending re-list was first asked for (ms since the epoch). */
  refreshSince?: number | undefined;
  /** A re-list is waiting behind the running one. */
  refreshQueued?: boolean;
  /** Runs after each re-list of the live connection (re-arms the `ttlMs` timer). */
  onListed?: (() => void) | undefined;
  reconnectTimer?: NodeJS.Timeout | undefined;
  /** Aborts the connect attempt in progress. */
  connecting?: AbortController;
  /** When the current connection became ready (ms since the epoch). */
  readyAt?: number;
  /** The FIFO limit of `maxConcurrency`, when the server has one. */
  queue?: CallQueue | undefined;
  /** The upstream's definitions of its tools with `x-mcp-header` arguments, by upstream name. */
  headerTools: Map<string, HeaderTool>;
  /** The era of the live (or last) connection. */
  era?: UpstreamEra;
  /** The 2026 cache hints of the last tool list. */
  listTtlMs?: number | undefined;
  listScope?: 'public' | 'private' | undefined;
  /** Re-lists when the last list's `ttlMs` has passed. */
  ttlTimer?: NodeJS.Timeout | undefined;
  /** Why the last connect failed, when it was for want of a usable sign-in (the error's text). */
  signInRequired?: string | undefined;
  /** The open `subscriptions/listen` of a modern connection. */
  listening?: { close(): void } | undefined;
}

/**
 * Whether a server's entry asks for a connection per profile (interactive sign-in with
 * `perProfile: true`).
 *
 * @throws nothing
 */
export function signsInPerProfile(entry: UpstreamServerInput): boolean {
  return 'url' in entry && entry.auth?.type === 'oauth' && entry.auth.perProfile === true;
}

/**
 * The record of a server of the config, before it connects.
 *
 * @param name - the server's name in the config
 * @param server - its entry
 * @returns `pending`, or `disabled` when the config says so
 * @throws nothing
 */
export function createUpstream(name: string, server: UpstreamServerInput): Upstream {
  return {
    name,
    config: server,
    state: server.disabled ? 'disabled' : 'pending',
    tools: [],
    listed: [],
    fingerprints: new Map(),
    held: [],
    cut: [],
    ignoredPins: [],
    rejected: [],
    attempts: 0,
    generation: 0,
    listing: Promise.resolve(),
    headerTools: new Map(),
    queue: server.maxConcurrency === undefined ? undefined : createCallQueue(server.maxConcurrency),
  };
}

/**
 * The status of a server, a copy that later changes do not touch.
 *
 * @param upstream - the pool's record
 * @param toolCount - how many tools it serves through the pool
 * @returns its status
 * @throws nothing
 */
export function upstreamStatus(upstream: Upstream, toolCount: number): UpstreamServerStatus {
  const status: UpstreamServerStatus = {
    name: upstream.name,
    state: upstream.state,
    toolCount,
    rejectedTools: [...upstream.rejected],
    cutTools: [...upstream.cut],
    ignoredPins: [...upstream.ignoredPins],
    heldTools: [...upstream.held],
    reconnectAttempts: upstream.attempts,
  };
  if (upstream.transport !== undefined) status.transport = upstream.transport;
  if (upstream.era !== undefined) status.era = upstream.era;
  if (upstream.listScope !== undefined) status.listScope = upstream.listScope;
  if (upstream.error !== undefined) status.error = upstream.error;
  if (upstream.connectMs !== undefined) status.connectMs = upstream.connectMs;
  return status;
}

/**
 * The fingerprint of every tool of the live servers (ready or reconnecting), held ones
 * included, as the servers sent them.
 *
 * @param upstreams - the pool's servers, in config order
 * @returns their fingerprints
 * @throws nothing
 */
export function liveFingerprints(upstreams: readonly Upstream[]): ToolFingerprint[] {
  return upstreams
    .filter((upstream) => upstream.state === 'ready' || upstream.state === 'reconnecting')
    .flatMap((upstream) =>
      [...upstream.fingerprints].map(([name, fingerprint]) => ({
        server: upstream.name,
        name,
        fingerprint,
      })),
    );
}
