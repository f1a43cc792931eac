import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { Assembly, BridgeTelemetry } from '@tool-search/bridge';
import type { Ranker, SearchLearner, TokenCounter, ToolDefinition } from '@tool-search/core';
import type { SkippedKeyword } from '@tool-search/core/validate';
import type { ApprovalAdapter, CallRoute, Guardrail, ToolCallHook } from '@tool-search/hooks';
import type { GatewayConfig } from '../config/parse.js';
import type { GatewayStore } from '../store/types.js';
import type { UpstreamPool } from '../upstream/pool.js';

/** What a gateway session needs of an upstream pool (an {@link UpstreamPool} fits). */
export type GatewayToolSource = Pick<UpstreamPool, 'tools' | 'callTool' | 'onToolsChanged'>;

/** One line of a gateway's activity feed: a call with its real tool name, or a bridge answer. */
export interface GatewayActivity {
  /** The session that made it. */
  sessionId: string;
  /** The session's profile, when it has one. */
  profile?: string;
  /**
   * `call` for a tool call (through `tool_call`, direct, or visible); `search` / `describe`
   * for the bridge; `resource` for a resource read, `prompt` for a prompt get; `sampling`,
   * `elicitation`, `roots` for a server request relayed to the client of a call.
   */
  kind:
    | 'call'
    | 'search'
    | 'describe'
    | 'resource'
    | 'prompt'
    | 'sampling'
    | 'elicitation'
    | 'roots';
  /** The real tool name (never `tool_call`), or `tool_search` / `tool_describe`. */
  name: string;
  /** The real arguments. */
  arguments: Record<string, unknown>;
  /** For a call: how it came in, `'bridge'` through `tool_call`, `'program'` from `tool_program`, else `'direct'`. */
  via?: CallRoute;
  /** For a call a program made (`via: 'program'`): the program's id, as in its result and audit records. */
  programId?: string;
  /**
   * `ok`: the tool ran and succeeded; `tool_error`: it ran and answered an error (or the
   * upstream failed); `denied` by a guardrail, hook or approval; `error`; `cancelled`.
   */
  status: 'ok' | 'tool_error' | 'denied' | 'error' | 'cancelled';
  /** Why, when it did not succeed (e.g. the denial's reason). */
  detail?: string;
  /** How long it took, in milliseconds. */
  durationMs: number;
}

/** What a warm-up did, for a log line or a test. */
export interface WarmUpReport {
  /** The scopes assembled: `(default)` for the sessions of no profile, else profile names. */
  scopes: string[];
  /** Of those, the ones whose catalog was searched (tool search active there). */
  searched: string[];
  /** How long it took, in milliseconds. */
  durationMs: number;
}

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  /** Where the tools come from, usually a started {@link UpstreamPool}. */
  pool: GatewayToolSource;
  /**
   * The gateway config (tool search, toolsets, profiles, guardrails, approval; the servers'
   * `trusted` and the review's `hold` say whose read-only annotations programs believe).
   */
  config?: Partial<
    Pick<
      GatewayConfig,
      | 'toolSearch'
      | 'toolsets'
      | 'profiles'
      | 'guardrails'
      | 'approval'
      | 'limits'
      | 'learning'
      | 'telemetry'
      | 'programs'
      | 'mcpServers'
      | 'review'
      | 'console'
    >
  >;
  /** The client model's context window in tokens, for the activation decision. */
  contextWindow?: number;
  /** The profile of sessions that name none (stdio sessions). Absent: every tool. */
  profile?: string;
  /**
   * Who is asked when a call needs approval, instead of the client. Absent: the client
   * through MCP elicitation when it supports it, else `config.approval.fallback`.
   */
  approval?: ApprovalAdapter;
  /** More guardrails, after the configured ones. */
  guardrails?: readonly Guardrail[];
  /** Hooks around every call. */
  hooks?: readonly ToolCallHook[];
  /** The ranker of `tool_search`. @defaultValue core's default BM25 */
  ranker?: Ranker;
  /**
   * Learning from use with a learner of your own (`createSearchLearner` of
   * `@tool-search/core`). @defaultValue one on the store's learning store when
   * `config.learning.enabled`, else none: nothing is learned
   */
  learner?: SearchLearner;
  /** The token counter of the activation decision. @defaultValue chars / 4 */
  counter?: TokenCounter;
  /** Keep the bridge descriptions byte-identical whatever the catalog (prompt caching). */
  stableDescriptions?: boolean;
  /**
   * Serve bridge definitions that OpenAI's strict mode accepts (every property required
   * and nullable when optional, `tool_call`'s `arguments` as JSON text), for a client
   * that hands the gateway's tools to OpenAI with `strict: true`. @defaultValue false
   */
  strictBridge?: boolean;
  /**
   * The call timeout of servers whose config sets no `callTimeoutMs` of their own (a
   * server's own value wins; progress resets either). @defaultValue the pool's
   */
  callTimeoutMs?: number;
  /**
   * The overall deadline of one `tool_call` batch (`calls`), approvals and queue time
   * included: a call still running when it passes is cancelled and answers an
   * `upstream_timeout` error, and the calls after it are not run and say so, so that a
   * batch of ten cannot take ten times a call's limit.
   * @defaultValue 600000 (the pool's default `maxCallTimeMs`: a batch gets one call's time)
   */
  batchDeadlineMs?: number;
  /**
   * Settles when the pool's first connect round is over (`pool.start()`), when the
   * gateway serves before its upstreams are ready. A `tools/list` or `tools/call` that
   * arrives earlier waits for it up to `upstreamsWaitMs`, so that a client that never
   * follows `list_changed` still sees the servers that start quickly.
   */
  upstreamsReady?: PromiseLike<unknown>;
  /** The longest such a request waits for `upstreamsReady`. @defaultValue 10000 */
  upstreamsWaitMs?: number;
  /**
   * The settle deadline: the longest the sessions' first activation decision waits for
   * `upstreamsReady`, from the gateway's creation. Until then a session neither decides
   * on the partial list nor sends `list_changed` as servers arrive, so a client that
   * connects while a slow server starts sees the bridge once, not the whole list and
   * then the bridge. Once past, each change is decided as it comes (with the hysteresis
   * band of `toolSearch.hysteresisPct`). @defaultValue `upstreamsWaitMs` (10000)
   */
  settleDeadlineMs?: number;
  /**
   * Warm up tool search once the first connect round settles (or its deadline passes):
   * each profile's tools are assembled as its sessions will be and their catalog searched
   * once, in the background, so that the analyzer's language model is loaded and the
   * index built before a session's first `tool_search`, which then costs what later ones
   * cost. @defaultValue true
   */
  warmUp?: boolean;
  /**
   * Serve the draft MCP progressive-disclosure methods as experimental capabilities
   * (`capabilities.experimental['tools.progressiveDisclosure']` and `['tools.filtering']`):
   * `tools/catalog` (short entries with a `schemaHash`), `tools/describe` (full
   * definitions of named tools; unknown names answer -32602 with `data.unknownNames`) and
   * a `query` on `tools/list` (the best tools of the session's scope, by the gateway's
   * ranker). A client that declares `experimental['tools.progressiveDisclosure']` gets
   * its `tools/list` without the bridge tools. A client that speaks neither sees no change.
   * @defaultValue true
   */
  experimentalCatalog?: boolean;
  /** Told when the warm-up is done: the scopes assembled and searched, and how long it took. */
  onWarmUp?: (report: WarmUpReport) => void;
  /** How the gateway introduces itself. */
  serverInfo?: Implementation;
  /** Instructions sent to clients at initialization. */
  instructions?: string;
  /** Receives every line of the activity feed. */
  onActivity?: (activity: GatewayActivity) => void;
  /**
   * Where sessions, their 'allow-session' approvals, the events of their streams, the
   * session caps and the audit trail are kept. A shared store ({@link createRedisStore})
   * lets several replicas serve the same sessions. @defaultValue an in-memory store
   */
  store?: GatewayStore;
  /**
   * How long "allow for this credential" holds, when a person chooses it for a stateless
   * (2026-07-28) client's call, in milliseconds; kept in the store. @defaultValue 3_600_000
   */
  credentialAllowMs?: number;
  /** Told of store trouble that failed no request (an audit record or event not stored). */
  onStoreError?: (message: string) => void;
  /**
   * Told of each keyword of a tool's input schema that argument checks leave unchecked
   * (a pattern the linear-time engine cannot run, a keyword whose check overran its
   * step budget on a call), once per tool, keyword and pointer, whether the bridge or
   * the schema guardrail met it: a log line or a metric.
   */
  onSkippedKeyword?: (skipped: SkippedKeyword) => void;
}

/** One client's session: its own scope, assembly, approvals and telemetry. */
export interface GatewaySession {
  /** A random id. */
  readonly id: string;
  /** The profile, when the session has one. */
  readonly profile: string | undefined;
  /** The session's MCP server (one per session). */
  readonly server: Server;
  /** The current assembly: what the client sees and the catalog behind `tool_search`. */
  assembly(): Assembly;
  /** The tools in this session's scope, before assembly. */
  tools(): ToolDefinition[];
  /** The bridge counters of this session. */
  telemetry(): BridgeTelemetry;
  /**
   * Calls a tool of the session's scope as an operator of the gateway console: the same
   * pipeline as a model's call (guardrails, hooks, the approval, the audit), with
   * `via: 'console'` and the operator in the audit record.
   *
   * @param call - the tool's exposed name and its arguments
   * @param options - who calls (`operator`) and an abort signal
   * @returns the MCP result: an error result for a denial, a failure or a tool outside
   * the session's scope
   * @throws nothing
   */
  callAsOperator(
    call: { name: string; arguments: Record<string, unknown> },
    options: GatewayOperatorCallOptions,
  ): Promise<CallToolResult>;
  /** Ends the session and its transport. */
  close(): Promise<void>;
}

/** Options of {@link GatewaySession.callAsOperator}. */
export interface GatewayOperatorCallOptions {
  /** The operator's principal (`default`, `profile:<name>`): the audit record names it. */
  operator: string;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** Options of {@link GatewayServer.connect}. */
export interface GatewayConnectOptions {
  /** The session's profile. @defaultValue the server's `profile` */
  profile?: string;
}

/** Options of {@link GatewayServer.openSession}. */
export interface GatewayOpenSessionOptions {
  /** The session's profile. @defaultValue the server's `profile` */
  profile?: string;
  /** The session id. @defaultValue a random UUID */
  id?: string;
  /** Who opened the session (e.g. its token's principal); `''` or absent for nobody in particular. */
  principal?: string;
}

/** Options of {@link GatewayServer.close}. */
export interface GatewayCloseOptions {
  /** How long calls in flight may still finish, in milliseconds. @defaultValue 0 */
  graceMs?: number;
}
