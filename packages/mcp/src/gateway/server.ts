import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  type Implementation,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type Assembly,
  assembleTools,
  type BridgeTelemetry,
  bridgeErrors,
  createBridgeTelemetry,
  handleBridgeCall,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/bridge';
import {
  describeError,
  type McpTool,
  type Ranker,
  type TokenCounter,
  type ToolDefinition,
  type ToolSearchConfig,
  ToolSearchError,
  toMcpTool,
} from '@tool-search/core';
import {
  type ApprovalAdapter,
  createDispatcher,
  type DispatchResult,
  type Guardrail,
  type ToolCallContext,
  type ToolCallHook,
} from '@tool-search/hooks';
import {
  createToolsetRegistry,
  type SessionScope,
  scopeTools,
  type ToolsetRegistry,
} from '@tool-search/toolsets';
import type {
  ApprovalConfig,
  GatewayConfig,
  GatewayProfile,
  GuardrailsConfig,
} from '../config/config.js';
import { errorResult } from '../tool-result/error-result.js';
import {
  serialisableResult,
  serialisationFailure,
  tryStringify,
} from '../tool-result/serialisable-result.js';
import { capToolDescription, DEFAULT_UPSTREAM_LIMITS } from '../upstream/limits.js';
import type { UpstreamCallOptions, UpstreamPool } from '../upstream/pool.js';
import { waitForUpstreams } from '../upstream/wait.js';
import {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './approval.js';
import { createCallDrain, type DrainReport } from './call-drain.js';
import { LENIENT_CALL_TOOL_REQUEST_SCHEMA } from './call-request-schema.js';
import { createConfigGuardrails } from './guardrails.js';
import { type GatewayHttpListener, type GatewayHttpOptions, listenGatewayHttp } from './http.js';
import { changedHands } from './identity-check.js';

/** The dispatch context of a gateway call: the client's progress listener rides along. */
interface CallContext extends ToolCallContext {
  onProgress?: UpstreamCallOptions['onProgress'];
}

/** What a gateway session needs of an upstream pool (an {@link UpstreamPool} fits). */
export type GatewayToolSource = Pick<UpstreamPool, 'tools' | 'callTool' | 'onToolsChanged'>;

/** One line of a gateway's activity feed: a call with its real tool name, or a bridge answer. */
export interface GatewayActivity {
  /** The session that made it. */
  sessionId: string;
  /** The session's profile, when it has one. */
  profile?: string;
  /** `call` for a tool call (through `tool_call`, direct, or visible); `search` / `describe` for the bridge. */
  kind: 'call' | 'search' | 'describe';
  /** The real tool name (never `tool_call`), or `tool_search` / `tool_describe`. */
  name: string;
  /** The real arguments. */
  arguments: Record<string, unknown>;
  /** Whether the model went through `tool_call`. */
  viaBridge: boolean;
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

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  /** Where the tools come from, usually a started {@link UpstreamPool}. */
  pool: GatewayToolSource;
  /** The gateway config (tool search, toolsets, profiles, guardrails, approval). */
  config?: Partial<
    Pick<
      GatewayConfig,
      'toolSearch' | 'toolsets' | 'profiles' | 'guardrails' | 'approval' | 'limits'
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
  /** The token counter of the activation decision. @defaultValue chars / 4 */
  counter?: TokenCounter;
  /** Keep the bridge descriptions byte-identical whatever the catalog (prompt caching). */
  stableDescriptions?: boolean;
  /**
   * The call timeout of servers whose config sets no `callTimeoutMs` of their own (a
   * server's own value wins; progress resets either). @defaultValue the pool's
   */
  callTimeoutMs?: number;
  /**
   * Settles when the pool's first connect round is over (`pool.start()`), when the
   * gateway serves before its upstreams are ready. A `tools/list` or `tools/call` that
   * arrives earlier waits for it up to `upstreamsWaitMs`, so that a client that never
   * follows `list_changed` still sees the servers that start quickly.
   */
  upstreamsReady?: PromiseLike<unknown>;
  /** The longest such a request waits for `upstreamsReady`. @defaultValue 10000 */
  upstreamsWaitMs?: number;
  /** How the gateway introduces itself. */
  serverInfo?: Implementation;
  /** Instructions sent to clients at initialization. */
  instructions?: string;
  /** Receives every line of the activity feed. */
  onActivity?: (activity: GatewayActivity) => void;
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
  /** Ends the session and its transport. */
  close(): Promise<void>;
}

/** Options of {@link GatewayServer.connect}. */
export interface GatewayConnectOptions {
  /** The session's profile. @defaultValue the server's `profile` */
  profile?: string;
}

/** An MCP server that puts tool search in front of an upstream pool. */
export interface GatewayServer {
  /**
   * Serves one client over a transport, e.g. a `StdioServerTransport`.
   *
   * @param transport - the transport (not started)
   * @param options.profile - the session's profile
   * @returns the session, once the transport is started
   * @throws {@link ToolSearchError} `invalid_config` for an unknown profile;
   * `invalid_argument` once {@link GatewayServer.close} began
   */
  connect(transport: Transport, options?: GatewayConnectOptions): Promise<GatewaySession>;
  /**
   * Serves Streamable HTTP. Safe by default: binds to 127.0.0.1, refuses foreign
   * `Origin`s (403) and `Host`s, and requires a bearer token whenever it binds to any
   * other address. Each profile with a `token` in the config is chosen by that token.
   * Browser pages on the allowed origins get CORS answers (preflights included);
   * sessions idle for `idleTimeoutMs` (30 minutes by default) are closed. Sessions are
   * capped per token (a token at its cap closes its own oldest idle session), sockets
   * are capped, and slow headers and bodies are cut off (408).
   *
   * @param options - see {@link GatewayHttpOptions}
   * @returns the listener with its `url` and `close()`
   * @throws {@link ToolSearchError} `invalid_config` when binding to a non-loopback
   * address without a token, for a token shorter than 16 characters, an allowed origin
   * that is not a serialized origin, a negative `idleTimeoutMs`, or a session,
   * connection or timeout limit that is not a whole number of 1 or more;
   * `invalid_argument` once {@link GatewayServer.close} began; the listen error when
   * the port is taken
   */
  listenHttp(options?: GatewayHttpOptions): Promise<GatewayHttpListener>;
  /** The open sessions. */
  sessions(): GatewaySession[];
  /**
   * Shuts down, not the pool: stops accepting (HTTP ports close, new sessions and
   * new calls are refused), lets the calls in flight finish for up to `graceMs`,
   * answers each one still running with a JSON-RPC error (code `-32000`,
   * `SHUTTING_DOWN_ERROR_CODE`, "The gateway is shutting down: …") and cancels
   * it upstream, then closes every session and HTTP listener.
   *
   * @param options.graceMs - how long calls in flight may still finish @defaultValue 0
   * @returns how many calls finished within the grace and how many were answered
   * with the shutdown error
   * @throws nothing
   */
  close(options?: GatewayCloseOptions): Promise<DrainReport>;
}

/** Options of {@link GatewayServer.close}. */
export interface GatewayCloseOptions {
  /** How long calls in flight may still finish, in milliseconds. @defaultValue 0 */
  graceMs?: number;
}

/** How long a listener is given to send the answers of a drain before it closes. */
const FLUSH_MS = 2_000;

const DISPATCHED = Symbol('dispatched');
interface Dispatched {
  [DISPATCHED]: DispatchResult;
}

function isDispatched(value: unknown): value is Dispatched {
  return typeof value === 'object' && value !== null && DISPATCHED in value;
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

function toCallToolResult(result: DispatchResult): CallToolResult {
  switch (result.status) {
    case 'ok': {
      if (isCallToolResult(result.result)) return result.result;
      const json = tryStringify(result.result);
      return json.ok
        ? { content: [{ type: 'text', text: json.text }] }
        : serialisationFailure(result.call.name, json.error);
    }
    case 'denied':
      return errorResult(
        'denied',
        `Denied by ${result.by.kind} '${result.by.name}': ${result.reason}`,
      );
    case 'error':
      return errorResult(result.error.code, result.error.message);
    case 'cancelled':
      return errorResult('cancelled', result.reason);
  }
}

function isBridgeError(answer: unknown): answer is { error: string } {
  return typeof answer === 'object' && answer !== null && 'error' in answer;
}

function bridgeAnswerResult(name: string, answer: unknown): CallToolResult {
  const json = tryStringify(answer);
  if (!json.ok) return serialisationFailure(name, json.error);
  const text = json.text;
  return isBridgeError(answer)
    ? { isError: true, content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }] };
}

function activityStatus(result: DispatchResult): GatewayActivity['status'] {
  if (result.status === 'ok') {
    return isCallToolResult(result.result) && result.result.isError ? 'tool_error' : 'ok';
  }
  return result.status;
}

function activityDetail(result: DispatchResult): string | undefined {
  switch (result.status) {
    case 'ok': {
      if (!isCallToolResult(result.result) || !result.result.isError) return undefined;
      const first = result.result.content[0];
      return first?.type === 'text' ? first.text.slice(0, 300) : undefined;
    }
    case 'denied':
      return `${result.by.kind} '${result.by.name}': ${result.reason}`;
    case 'error':
      return result.error.message;
    case 'cancelled':
      return result.reason;
  }
}

const DEFAULT_GUARDRAILS_CONFIG: GuardrailsConfig = {
  deny: { tools: [], toolsets: [] },
  validateArguments: false,
};
const DEFAULT_APPROVAL_CONFIG: ApprovalConfig = {
  require: { tools: [], toolsets: [], annotations: {} },
  autoApprove: { tools: [], toolsets: [], annotations: {} },
  otherwise: 'allow',
  fallback: 'deny',
  timeoutMs: 120_000,
};

/**
 * Creates an MCP gateway server: every client session gets its own scope (the
 * profile's toolsets), assembly (tool search's three bridge tools in place of the
 * deferred tools, when they are big enough to matter) and dispatch (guardrails,
 * hooks, approval, then the upstream pool).
 *
 * - `tools/list` returns the session's assembled tools.
 * - `tools/call` answers `tool_search` and `tool_describe` from the session's catalog,
 *   unwraps `tool_call`, routes a direct call of a deferred tool like `tool_call`, and
 *   dispatches visible tools; a tool outside the session's scope is refused without
 *   reaching any upstream.
 * - When the pool's tools change, each session re-assembles and its client is sent
 *   `notifications/tools/list_changed` if what it sees changed.
 * - Approval: the client is asked through MCP elicitation when it supports it;
 *   otherwise `config.approval.fallback` decides; no answer in time means deny.
 *
 * @example
 * ```ts
 * const config = await loadGatewayConfig('gateway.json');
 * const pool = createUpstreamPool(config);
 * await pool.start();
 * const gateway = createGatewayServer({ pool, config, contextWindow: 200_000 });
 * await gateway.connect(new StdioServerTransport());
 * ```
 *
 * @param options - see {@link GatewayServerOptions}
 * @returns the gateway
 * @throws {@link ToolSearchError} `invalid_config` for an unknown `profile` or bad
 * toolset definitions (a cycle, an unknown include)
 */
export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const { pool } = options;
  const config = options.config ?? {};
  const profiles: Record<string, GatewayProfile> = config.profiles ?? {};
  const toolSearch: ToolSearchConfig | undefined = config.toolSearch;
  const approvalConfig = config.approval ?? DEFAULT_APPROVAL_CONFIG;
  const serverInfo = options.serverInfo ?? { name: 'tool-search-gateway', version: '0.0.0' };
  const maxDescriptionChars =
    config.limits?.maxDescriptionChars ?? DEFAULT_UPSTREAM_LIMITS.maxDescriptionChars;

  let registry: ToolsetRegistry;
  try {
    registry = createToolsetRegistry(config.toolsets ?? []);
  } catch (error) {
    throw new ToolSearchError('invalid_config', `Invalid toolsets: ${describeError(error)}`, {
      cause: error,
    });
  }
  const checkProfile = (name: string | undefined): GatewayProfile | undefined => {
    if (name === undefined) return undefined;
    const profile = profiles[name];
    if (profile === undefined) {
      const known = Object.keys(profiles);
      throw new ToolSearchError(
        'invalid_config',
        `Unknown profile '${name}' (${known.length ? `known: ${known.join(', ')}` : 'the config defines none'}).`,
      );
    }
    return profile;
  };
  checkProfile(options.profile);

  // Shared by every session: they hold no per-session state (the schema guardrail finds
  // the tool in the dispatch context, which each session resolves within its own scope).
  const guardrails = [
    ...createConfigGuardrails(config.guardrails ?? DEFAULT_GUARDRAILS_CONFIG),
    ...(options.guardrails ?? []),
  ];

  const sessions = new Map<string, GatewaySession>();
  const upstreamsSettled = waitForUpstreams(options.upstreamsReady, options.upstreamsWaitMs);
  const listeners = new Set<GatewayHttpListener>();
  // Every session's calls in flight, so that a shutdown answers each of them.
  const drain = createCallDrain();

  const emitActivity = (activity: GatewayActivity) => {
    try {
      options.onActivity?.(activity);
    } catch {
      // The feed must not break a call.
    }
  };

  const createSession = (profileName: string | undefined, id: string = randomUUID()) => {
    const profile = checkProfile(profileName);
    const scope: SessionScope = {};
    if (profile?.enabledToolsets !== undefined) scope.enabledToolsets = profile.enabledToolsets;
    if (profile?.disabledToolsets !== undefined) scope.disabledToolsets = profile.disabledToolsets;

    const server = new Server(serverInfo, {
      capabilities: { tools: { listChanged: true } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
    const telemetry = createBridgeTelemetry();
    let scoped = new Map<string, ToolDefinition>();
    let assembly: Assembly | undefined;
    let listed: McpTool[] = [];
    let listedKey = '';
    let initialized = false;
    let closed = false;

    const reassemble = (): boolean => {
      // The pool cuts descriptions already; a tool source of another kind may not.
      const shown = pool.tools().map((tool) => capToolDescription(tool, maxDescriptionChars));
      const tools = scopeTools(shown, scope, registry);
      scoped = new Map(tools.map((tool) => [tool.name, tool]));
      assembly = assembleTools({
        tools,
        ...(toolSearch === undefined ? {} : { config: toolSearch }),
        ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
        ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
        ...(options.counter === undefined ? {} : { counter: options.counter }),
        ...(options.stableDescriptions === undefined
          ? {}
          : { stableDescriptions: options.stableDescriptions }),
        ...(assembly === undefined ? {} : { previous: assembly }),
        telemetry,
      });
      const next = assembly.tools.map(toMcpTool);
      const key = JSON.stringify(next);
      const changed = key !== listedKey;
      listed = next;
      listedKey = key;
      return changed;
    };
    reassemble();

    const ask = () =>
      options.approval ??
      (clientSupportsElicitation(server)
        ? createElicitationApproval(server, { timeoutMs: approvalConfig.timeoutMs })
        : undefined);
    const approval = createGatewayApproval(approvalConfig, ask);

    const activityHook: ToolCallHook = {
      name: 'gateway-activity',
      onSettled(settled, ctx) {
        const activity: GatewayActivity = {
          sessionId: id,
          kind: 'call',
          name: settled.result.call.name,
          arguments: settled.result.call.arguments,
          viaBridge: ctx.viaBridge,
          status: activityStatus(settled.result),
          durationMs: Math.round(settled.durationMs),
        };
        if (profileName !== undefined) activity.profile = profileName;
        const detail = activityDetail(settled.result);
        if (detail !== undefined) activity.detail = detail;
        emitActivity(activity);
      },
    };

    const dispatcher = createDispatcher({
      async execute(call, ctx) {
        // A hook may rename a call: the scope is checked on the final name too.
        if (!scoped.has(call.name)) {
          return errorResult('not_in_session', bridgeErrors.notInSession(call.name));
        }
        // The policies decided on one tool; a rename while the call waited (for a
        // person's approval, say) may have given its name to another.
        const changed = changedHands(call.name, ctx.tool, scoped.get(call.name));
        if (changed !== undefined) return errorResult('tool_changed', changed);
        // The dispatcher hands the caller's context through: the client's progress
        // listener, when it asked for progress.
        const { onProgress } = ctx as CallContext;
        return pool.callTool(call.name, call.arguments, {
          signal: ctx.signal,
          ...(options.callTimeoutMs === undefined
            ? {}
            : { defaultTimeoutMs: options.callTimeoutMs }),
          ...(onProgress === undefined ? {} : { onProgress }),
        });
      },
      guardrails,
      hooks: [...(options.hooks ?? []), activityHook],
      ...(approval === undefined ? {} : { approval }),
      resolveTool: (name) => scoped.get(name),
      timeouts: { approval: approvalConfig.timeoutMs },
    });

    server.setRequestHandler(ListToolsRequestSchema, async () => {
      await upstreamsSettled();
      return { tools: listed };
    });
    // The lenient schema lets the SDK check the request itself: bad params (say,
    // `arguments` that are a string) get -32602 Invalid params instead of -32603.
    server.setRequestHandler(LENIENT_CALL_TOOL_REQUEST_SCHEMA, (raw, extra) =>
      drain.run(async (signal) => {
        await upstreamsSettled();
        const request = CallToolRequestSchema.parse(raw);
        return serialisableResult(request.params.name, await callTool(request, extra, signal));
      }, extra.signal),
    );
    const callTool = async (
      request: CallToolRequest,
      extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
      signal: AbortSignal,
    ): Promise<CallToolResult> => {
      const current = assembly!;
      const call = { name: request.params.name, arguments: request.params.arguments ?? {} };
      const began = performance.now();
      // A client that sent a progress token gets the upstream's progress under that token,
      // whether it called the tool by name or through tool_call.
      // The result waits for the forwarded updates: a client stops listening for a
      // request's progress once its response has arrived.
      const progressToken = request.params._meta?.progressToken;
      const forwarded: Promise<void>[] = [];
      const onProgress: UpstreamCallOptions['onProgress'] =
        progressToken === undefined
          ? undefined
          : (progress) => {
              forwarded.push(
                extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: { ...progress, progressToken },
                  })
                  .catch(() => {}),
              );
            };
      const settleProgress = () => Promise.all(forwarded);
      const answer = handleBridgeCall(
        current,
        call,
        async (real, ctx) => {
          const context: CallContext = {
            sessionId: id,
            signal,
            viaBridge: ctx.route === 'tool_call',
            tool: ctx.tool,
            onProgress,
          };
          const result = await dispatcher(real, context);
          await settleProgress();
          return { [DISPATCHED]: result } satisfies Dispatched;
        },
        // The pool holds more tools than this session may see: refuse every other name here.
        { refuseUnknownNames: true },
      );
      if (answer !== undefined) {
        const settled = await answer;
        if (isDispatched(settled)) return toCallToolResult(settled[DISPATCHED]);
        if (call.name === TOOL_SEARCH || call.name === TOOL_DESCRIBE) {
          const isError = isBridgeError(settled);
          const activity: GatewayActivity = {
            sessionId: id,
            kind: call.name === TOOL_SEARCH ? 'search' : 'describe',
            name: call.name,
            arguments: call.arguments,
            viaBridge: false,
            status: isError ? 'error' : 'ok',
            durationMs: Math.round(performance.now() - began),
          };
          if (profileName !== undefined) activity.profile = profileName;
          if (isError) activity.detail = String(settled.error);
          emitActivity(activity);
        }
        return bridgeAnswerResult(call.name, settled);
      }
      const tool = scoped.get(call.name);
      const visible = tool !== undefined && current.tools.some((entry) => entry.name === call.name);
      if (!visible) {
        return errorResult('not_in_session', bridgeErrors.notInSession(call.name));
      }
      const context: CallContext = {
        sessionId: id,
        signal,
        viaBridge: false,
        tool,
        onProgress,
      };
      const result = await dispatcher(call, context);
      await settleProgress();
      return toCallToolResult(result);
    };

    const unsubscribe = pool.onToolsChanged(() => {
      if (closed) return;
      if (reassemble() && initialized) void server.sendToolListChanged().catch(() => {});
    });
    server.oninitialized = () => {
      initialized = true;
    };

    const session: GatewaySession = {
      id,
      profile: profileName,
      server,
      assembly: () => assembly!,
      tools: () => [...scoped.values()],
      telemetry: () => telemetry,
      async close() {
        if (closed) return;
        closed = true;
        unsubscribe();
        sessions.delete(id);
        await server.close().catch(() => {});
      },
    };
    server.onclose = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      sessions.delete(id);
    };
    sessions.set(id, session);
    return session;
  };

  return {
    async connect(transport, connectOptions = {}) {
      if (drain.draining) {
        throw new ToolSearchError(
          'invalid_argument',
          'The gateway is shutting down: it takes no new sessions.',
        );
      }
      const session = createSession(connectOptions.profile ?? options.profile);
      await session.server.connect(transport);
      return session;
    },
    async listenHttp(httpOptions = {}) {
      if (drain.draining) {
        throw new ToolSearchError(
          'invalid_argument',
          'The gateway is shutting down: it opens no new listener.',
        );
      }
      const listener = await listenGatewayHttp(
        {
          createSession: (profile, id) => createSession(profile, id),
          profiles,
          ...(options.profile === undefined ? {} : { defaultProfile: options.profile }),
        },
        httpOptions,
      );
      listeners.add(listener);
      const close = listener.close;
      return {
        ...listener,
        async close(closeOptions) {
          listeners.delete(listener);
          await close(closeOptions);
        },
      };
    },
    sessions: () => [...sessions.values()],
    async close(closeOptions = {}) {
      for (const listener of listeners) listener.stopAccepting();
      const report = await drain.drain(closeOptions.graceMs ?? 0);
      // The answers are on their way: stdio writes them within this turn, HTTP
      // listeners wait (briefly) for their responses to end before closing.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled(
        [...listeners].map((listener) => listener.close({ graceMs: FLUSH_MS })),
      );
      listeners.clear();
      await Promise.allSettled([...sessions.values()].map((session) => session.close()));
      return report;
    },
  };
}
