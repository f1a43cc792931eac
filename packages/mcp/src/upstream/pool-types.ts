import type { ClientCapabilities, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { CallToolResult, Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '@tool-search/core';
import type { GatewayPins } from '../config/schemas.js';
import type { UpstreamAuthConfig } from '../config/upstream-auth-schema.js';
import type { UpstreamServerInput, UpstreamTransportKind } from './connect.js';
import type { RetryDemand } from './failed-retry.js';
import type { CallRelay } from './features/relay.js';
import type { UpstreamFeatures } from './features/upstream-features.js';
import type { UpstreamInputHandler, UpstreamInputResume } from './input-required.js';
import type { CutTool, UpstreamLimits } from './limits.js';
import type { HeldTool, SharedToolReview, ToolFingerprint, ToolReviewConfig } from './review.js';

/** What `restart` did: `restarted` (ready again), `failed` (it did not come back), or why not. */
export type RestartOutcome = 'restarted' | 'failed' | 'unknown' | 'disabled' | 'closed';

/** Options of `reload`. */
export interface PoolReloadOptions {
  /** The new pins (`pins` of the config): tools pinned or unpinned are listed anew. Absent key: kept. */
  pins?: Partial<GatewayPins> | undefined;
}

/** What `reload` changed, by server name. */
export interface PoolReloadReport {
  added: string[];
  removed: string[];
  changed: string[];
}

/** What the pool needs of a config: the servers, and optionally the pins. */
export interface UpstreamPoolConfig {
  /** The upstream servers by name, in priority order (collisions are named in this order). */
  mcpServers: Readonly<Record<string, UpstreamServerInput>>;
  /** Tools that are never deferred (`alwaysLoad`). */
  pins?: Partial<GatewayPins>;
  /** How much of a definition is accepted and shown. @defaultValue {@link DEFAULT_UPSTREAM_LIMITS} */
  limits?: Partial<UpstreamLimits>;
  /** The review file and what it holds back. @defaultValue nothing held */
  review?: ToolReviewConfig;
}

/**
 * The lifecycle of one upstream server:
 * `connecting` → `ready` ⇄ `reconnecting` → `failed` → (a retry) `reconnecting`; `disabled`
 * in the config; `closed` after `close()`.
 */
export type UpstreamState =
  | 'pending'
  | 'connecting'
  | 'ready'
  | 'reconnecting'
  | 'failed'
  | 'disabled'
  | 'closed';

/** A tool definition that the pool rejected, with why. */
export interface RejectedTool {
  /** The name as the server sent it (or `<unnamed>`). */
  name: string;
  /** What was wrong with it. */
  error: string;
}

/** The state of one upstream server, as `status()` reports it. */
export interface UpstreamServerStatus {
  /** The server's name in the config. */
  name: string;
  /** Where it is in its lifecycle. */
  state: UpstreamState;
  /** How it is reached, once connected. */
  transport?: UpstreamTransportKind;
  /**
   * The MCP era it speaks, once connected: `modern` (2026-07-28, found by `server/discover`)
   * or `legacy` (2025, the `initialize` handshake).
   */
  era?: 'modern' | 'legacy';
  /**
   * The cache scope of its last tool list (2026-07-28): `private` when the list is what the
   * pool's credential for it sees (not to be shared beyond that credential); absent in 2025.
   */
  listScope?: 'public' | 'private';
  /**
   * Each profile reaches it over its own connection with its own sign-in (`auth.perProfile`):
   * this status is the shared connection's (the operator's sign-in), used by the sessions of
   * no profile.
   */
  perProfile?: true;
  /** The tools it serves through the pool (a `failed` server's are its last known ones). */
  toolCount: number;
  /** Definitions it sent that were rejected (bad schema, bad name, duplicate, over the limits). */
  rejectedTools: RejectedTool[];
  /** Definitions it sent whose description was cut to `limits.maxDescriptionChars`. */
  cutTools: CutTool[];
  /** Its tools that pinned themselves although the config does not trust it (not pinned). */
  ignoredPins: string[];
  /** Its tools held back until accepted into the review file (not listed, not callable). */
  heldTools: HeldTool[];
  /** Why it is `failed` or `reconnecting`. */
  error?: string;
  /** Milliseconds its last successful connect and tool listing took. */
  connectMs?: number;
  /** Reconnect attempts since it last went down (reset once a connection has lived 30 s). */
  reconnectAttempts: number;
}

/** A lifecycle event of one upstream server, for progress displays and logs. */
export interface UpstreamProgressEvent {
  /** What happened. */
  kind:
    | 'connecting'
    | 'ready'
    | 'failed'
    | 'disconnected'
    | 'reconnecting'
    | 'retrying'
    | 'tools_changed';
  /** The server's name. */
  server: string;
  /** Its status right after the event. */
  status: UpstreamServerStatus;
}

/** Backoff for servers that die. */
export interface ReconnectOptions {
  /** The first delay. @defaultValue 500 */
  initialDelayMs?: number;
  /** The longest delay. @defaultValue 30000 */
  maxDelayMs?: number;
  /** Attempts before the server is given up (`failed`). @defaultValue 8 */
  maxAttempts?: number;
  /**
   * Time between retries of a server that was given up on (or failed to start); a call
   * of one of its tools also starts a retry. `0` never retries on a schedule (calls
   * still do). @defaultValue 300000
   */
  retryFailedMs?: number;
}

/** Options of {@link createUpstreamPool}. */
export interface UpstreamPoolOptions {
  /**
   * The accepted tool fingerprints shared by several replicas (a shared store), read
   * instead of the review file. @defaultValue the review file only
   */
  sharedReview?: SharedToolReview;
  /** Time for one server to start, connect and list its tools. @defaultValue 30000 */
  connectTimeoutMs?: number;
  /**
   * Default timeout of one tool call: no answer and no progress for this long ends it
   * (progress notifications reset it). A server's own `callTimeoutMs` wins. @defaultValue 60000
   */
  callTimeoutMs?: number;
  /**
   * Default longest call, however much progress it reports (queue time included). A
   * server's own `maxCallTimeMs` wins; never below the call's timeout. @defaultValue 600000
   */
  maxCallTimeMs?: number;
  /**
   * For servers with `maxConcurrency`: how long a server has to answer a call that timed
   * out or was cancelled (it is sent `notifications/cancelled`) before the pool restarts
   * its connection. The call keeps its queue slot until the late answer, or until the
   * restart is over, so no later call runs beside it. @defaultValue 5000
   */
  cancelGraceMs?: number;
  /** Called on every lifecycle event of every server. */
  onProgress?: (event: UpstreamProgressEvent) => void;
  /** Reconnect servers that die (`false` to never). @defaultValue true */
  reconnect?: boolean | ReconnectOptions;
  /** How the pool introduces itself to upstream servers. */
  clientInfo?: Implementation;
  /**
   * The capabilities the pool declares to upstream servers (e.g. `{ elicitation: {} }` when
   * callers pass `onInputRequired` that can answer elicitations). @defaultValue `{}`
   */
  clientCapabilities?: ClientCapabilities;
  /**
   * What stdio servers write to stderr (their logs). Absent: kept only as a short
   * tail for error messages, never printed. The text is the server's, raw: print it
   * through `sanitizeTerminalText`.
   */
  onStderr?: (server: string, text: string) => void;
  /**
   * The OAuth client for an HTTP server whose entry has `auth` (called at every connect;
   * e.g. `createUpstreamAuthProviders`). Absent: such servers get only their headers.
   */
  authProvider?: UpstreamAuthProviderFactory;
  /**
   * The most connections opened for profiles (servers with `auth.perProfile`), all servers
   * together: past it, the one used least recently (and idle) is closed; it reopens on its
   * profile's next use. @defaultValue 64
   */
  maxProfileConnections?: number;
}

/** Makes the OAuth client of one server that needs sign-in, or none. */
export type UpstreamAuthProviderFactory = (
  server: string,
  entry: { url: string; auth: UpstreamAuthConfig },
  /** For a connection of one profile (`auth.perProfile`): that profile's sign-in only. */
  who?: { profile: string },
) => Promise<OAuthClientProvider | undefined>;

/** Options of one {@link UpstreamPool.callTool} call. */
export interface UpstreamCallOptions {
  /** Cancels the call (the upstream is sent `notifications/cancelled`). */
  signal?: AbortSignal;
  /** This call's timeout; wins over every other. @defaultValue the server's, else `defaultTimeoutMs`, else the pool's */
  timeoutMs?: number;
  /** The timeout when the server's config sets none (the gateway server's `callTimeoutMs`). */
  defaultTimeoutMs?: number;
  /** Progress notifications of the upstream for this call. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Answers the upstream's `input_required` (2026-07-28): see {@link UpstreamInputHandler}.
   * The pool retries the call with the answers and the upstream's `requestState`. Absent:
   * a call that needs input ends with an `upstream_failed` error result that names the
   * server and what it asked.
   */
  onInputRequired?: UpstreamInputHandler;
  /**
   * The profile of the caller: a server whose `auth` says `perProfile` is called over this
   * profile's own connection, with its own sign-in (and the name looked up in its view).
   * @defaultValue none: the pool's shared connections
   */
  profile?: string | undefined;
  /** The most `input_required` rounds answered for this call. @defaultValue 8 */
  maxInputRounds?: number;
  /**
   * Resumes a call whose `input_required` an earlier request deferred (a 2026 client's
   * retry): the first leg carries its answers and the upstream's `requestState`, once the
   * check against the call about to run passes; rounds count on from where it stopped.
   */
  resumeInput?: UpstreamInputResume;
  /** Where what the upstream asks during the call goes (the client of the call). */
  relay?: CallRelay;
  /** The client's `_meta` of the call, sent on to the upstream (the gateway sets the progress token). */
  meta?: Record<string, unknown>;
}

/** Whose view of the pool: the profile's own connections for servers signed in per profile. */
export interface UpstreamViewOptions {
  /** The profile. @defaultValue none: the shared connections only */
  profile?: string | undefined;
}

/** Where a pooled tool comes from. */
export interface UpstreamToolInfo {
  /** The name the pool exposes. */
  name: string;
  /** The server's name. */
  server: string;
  /** The tool's name on that server. */
  upstreamName: string;
  /** The definition as exposed. */
  tool: ToolDefinition;
}

/**
 * A pool of connections to upstream MCP servers that serves their tools as one list
 * of {@link ToolDefinition}s (`source: 'mcp'`, `toolset: 'mcp-<server>'`).
 */
export interface UpstreamPool {
  /**
   * Connects to every enabled server in parallel and lists its tools. A server that
   * fails to start, times out or answers badly is reported (`failed`) and skipped (and
   * retried later, unless `reconnect` is `false`); the others serve. Calling it again
   * returns the same promise.
   *
   * @returns the status of every server once each is `ready` or `failed`
   * @throws nothing
   */
  start(): Promise<UpstreamServerStatus[]>;
  /**
   * The tools of every live server, with collision-free names and their `origin`
   * (server and upstream name), servers in config order. With a `profile`: that profile's
   * view, its own lists of the servers it signs in to itself (`auth.perProfile`) once
   * {@link UpstreamPool.settle} or a call of that profile opened its connections.
   */
  tools(options?: UpstreamViewOptions): ToolDefinition[];
  /** Where a pooled tool comes from, by its exposed name (in the profile's view, when given). */
  lookup(name: string, options?: UpstreamViewOptions): UpstreamToolInfo | undefined;
  /**
   * Waits until a profile's own connections (servers with `auth.perProfile`) have tried
   * to connect, so that `tools({ profile })` has their lists; opens them when not yet
   * open. Resolves at once for no profile or a config without such servers.
   *
   * @param profile - the profile
   * @throws nothing
   */
  settle(profile?: string): Promise<void>;
  /**
   * The fingerprint of every tool of the live servers, held ones included (refused
   * ones not), as the servers sent them: what `inspect --accept` writes.
   */
  fingerprints(): ToolFingerprint[];
  /** The status of every server, in config order. */
  status(): UpstreamServerStatus[];
  /**
   * Calls a pooled tool on its server. Never throws: an unknown tool, a server that
   * is down, a timeout, a crash during the call and a cancellation each give an
   * `isError` result whose text says what happened and what to do, with the code
   * under `_meta["tool-search/error"]` (`unknown_tool`, `upstream_unavailable`,
   * `upstream_timeout`, `upstream_failed`, `aborted`). A call of a `failed` server's
   * tool starts a reconnect attempt and answers `upstream_unavailable` at once, saying
   * so. A server with `maxConcurrency` runs its calls in arrival order; a call waits
   * in that queue at most its timeout, and its `maxCallTimeMs` counts from arrival.
   *
   * @param name - the exposed name
   * @param args - the arguments object
   * @param options.signal - cancels the call
   * @param options.timeoutMs - this call's timeout (wins over the server's)
   * @param options.defaultTimeoutMs - the timeout when the server's config sets none
   * @returns the upstream's `CallToolResult`, or an error result
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: UpstreamCallOptions,
  ): Promise<CallToolResult>;
  /**
   * Listens for changes of `tools()`: a server's `tools/list_changed`, a server that
   * comes up. A server that is given up keeps its last known tools. Not called when a re-list gives the same tools.
   *
   * @returns a function that removes the listener
   */
  onToolsChanged(listener: (tools: ToolDefinition[]) => void): () => void;
  /** Listens for lifecycle events (the same as `options.onProgress`). @returns an unsubscribe function */
  onProgress(listener: (event: UpstreamProgressEvent) => void): () => void;
  /**
   * Retries a server the pool gave up on (`failed`) now, instead of on its schedule, as a
   * call of one of its tools does (the console's Reconnect).
   *
   * @param server - the server's name in the config
   * @returns `started`, `in_progress` or `recent` (see {@link RetryDemand}); `not_failed`
   * for a server that is not failed (ready, connecting, reconnecting); `unknown` for a
   * name the config does not have; `off` when reconnecting is off
   * @throws nothing
   */
  retry(server: string): RetryDemand | 'not_failed' | 'unknown' | 'off';
  /**
   * Restarts a server now, whatever its state (a healthy one that misbehaves too): its
   * connection or process is closed and a new one connects; its last known tools stay
   * listed meanwhile (the console's Restart).
   *
   * @param server - the server's name in the config
   * @returns `restarted`, `failed` (it did not come back; retried later), `unknown`,
   * `disabled` or `closed` (the pool is closed)
   * @throws nothing
   */
  restart(server: string): Promise<RestartOutcome>;
  /**
   * Applies a new `mcpServers` while the pool serves: servers no longer there are closed,
   * new ones connect, changed ones restart with their new entry; the others are untouched.
   *
   * @param servers - the new `mcpServers`
   * @param options - `pins`: the new pins (absent key: kept)
   * @returns the names added, removed and changed, once each new or changed one is ready or failed
   * @throws nothing
   */
  reload(
    servers: Readonly<Record<string, UpstreamServerInput>>,
    options?: PoolReloadOptions,
  ): Promise<PoolReloadReport>;
  /** Disconnects from every server and stops reconnecting. */
  close(): Promise<void>;
  /** Resources, prompts, completions, logs and relays beyond tools (absent: tools only). */
  readonly features?: UpstreamFeatures;
}
