import { AsyncLocalStorage } from 'node:async_hooks';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  type Implementation,
  ListToolsRequestSchema,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type Assembly,
  assembleTools,
  bridgeErrors,
  createBridgeTelemetry,
  echoName,
  handleBridgeCall,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/bridge';
import {
  type McpTool,
  type ToolDefinition,
  type ToolSearchConfig,
  toMcpTool,
} from '@tool-search/core';
import {
  type AuditHook,
  type AuditRefusal,
  createDispatcher,
  type DispatchResult,
  type Guardrail,
  type ToolCallContext,
  type ToolCallHook,
} from '@tool-search/hooks';
import { type SessionScope, scopeTools, type ToolsetRegistry } from '@tool-search/toolsets';
import type { ApprovalConfig, GatewayProfile } from '../config/schemas.js';
import { withStoredApprovals } from '../store/stored-approvals.js';
import type { GatewayStore } from '../store/types.js';
import { batchCallResult } from '../tool-result/batch-result.js';
import { bridgeAnswerResult, isBridgeError, toCallToolResult } from '../tool-result/call-result.js';
import { errorResult } from '../tool-result/error-result.js';
import { serialisableResult } from '../tool-result/serialisable-result.js';
import { DEFAULT_MAX_CALL_TIME_MS } from '../upstream/call.js';
import { capToolDescription } from '../upstream/limits.js';
import type { UpstreamCallOptions } from '../upstream/pool.js';
import { activityDetail, activityStatus } from './activity.js';
import {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './approval.js';
import { startBatchDeadline } from './batch-deadline.js';
import type { CallDrain } from './call-drain.js';
import { LENIENT_CALL_TOOL_REQUEST_SCHEMA } from './call-request-schema.js';
import { changedHands } from './identity-check.js';
import type { GatewayActivity, GatewayServerOptions, GatewaySession } from './types.js';

/** The dispatch context of a gateway call: the client's progress listener rides along. */
interface CallContext extends ToolCallContext {
  onProgress?: UpstreamCallOptions['onProgress'];
}

const DISPATCHED = Symbol('dispatched');
interface Dispatched {
  [DISPATCHED]: DispatchResult;
}

function isDispatched(value: unknown): value is Dispatched {
  return typeof value === 'object' && value !== null && DISPATCHED in value;
}

// A `tool_call` batch answers `{ results }`: each a dispatched call or the bridge's refusal.
function batchResults(value: unknown): unknown[] | undefined {
  if (typeof value !== 'object' || value === null || !('results' in value)) return undefined;
  const results = (value as { results: unknown }).results;
  return Array.isArray(results) ? results : undefined;
}

// A call that ran and answered without an error result.
function succeeded(result: DispatchResult): boolean {
  if (result.status !== 'ok') return false;
  const value = result.result as { isError?: unknown } | null;
  return !(typeof value === 'object' && value !== null && value.isError === true);
}

function batchOutcome(result: unknown) {
  if (isDispatched(result)) {
    return { name: result[DISPATCHED].call.name, result: toCallToolResult(result[DISPATCHED]) };
  }
  const name = (result as { name?: unknown }).name;
  return {
    name: typeof name === 'string' ? name : undefined,
    result: bridgeAnswerResult(TOOL_CALL, result),
  };
}

/** What a new session shares with its gateway: the checked config and the gateway's state. */
export interface GatewaySessionContext {
  /** The gateway's options (tool source, hooks, ranker, approval adapter...). */
  options: GatewayServerOptions;
  /** The toolset registry of the config. */
  registry: ToolsetRegistry;
  /** Core's tool search config, when the config has one. */
  toolSearch: ToolSearchConfig | undefined;
  /** The approval policy. */
  approvalConfig: ApprovalConfig;
  /** The guardrails of every session (configured ones, then the options'). */
  guardrails: readonly Guardrail[];
  /**
   * The size limit of a call's arguments (`guardrails.maxArgumentBytes`), when one is
   * configured: the bridge refuses larger arguments before it checks their schema.
   */
  maxArgumentBytes?: number;
  /** How each session's MCP server introduces itself. */
  serverInfo: Implementation;
  /** Descriptions longer than this are cut. */
  maxDescriptionChars: number;
  /** Settles when the upstreams are ready (or the wait is over). */
  upstreamsSettled: () => Promise<void>;
  /** Every session's calls in flight. */
  drain: CallDrain;
  /** Sends a line to the activity feed (never throws). */
  emitActivity: (activity: GatewayActivity) => void;
  /** Told when a session ends, by id. */
  onClosed: (id: string) => void;
  /** The gateway's store: a shared one keeps 'allow-session' answers for every replica. */
  store: GatewayStore;
  /** The hook that writes every call to the store's audit trail. */
  auditHook: AuditHook;
}

/**
 * Creates one client's session: its own scope, assembly, dispatcher (guardrails,
 * hooks, approval, then the tool source) and MCP server, not yet connected.
 *
 * @param context - what the session shares with its gateway
 * @param profileName - the session's profile name, when it has one
 * @param profile - that profile, already checked against the config
 * @param id - the session's id
 * @returns the session
 * @throws nothing
 */
export function createGatewaySession(
  context: GatewaySessionContext,
  profileName: string | undefined,
  profile: GatewayProfile | undefined,
  id: string,
): GatewaySession {
  const {
    options,
    registry,
    toolSearch,
    approvalConfig,
    guardrails,
    maxArgumentBytes,
    serverInfo,
    maxDescriptionChars,
    upstreamsSettled,
    drain,
    emitActivity,
    onClosed,
    store,
    auditHook,
  } = context;
  const { pool } = options;
  const scope: SessionScope = {};
  if (profile?.enabledToolsets !== undefined) scope.enabledToolsets = profile.enabledToolsets;
  if (profile?.disabledToolsets !== undefined) scope.disabledToolsets = profile.disabledToolsets;

  const server = new Server(serverInfo, {
    capabilities: { tools: { listChanged: true } },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  const telemetry = createBridgeTelemetry();
  // The client request a call serves: an approval question goes on its stream.
  const servedRequest = new AsyncLocalStorage<RequestId>();
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
      ...(options.strictBridge === undefined ? {} : { strict: options.strictBridge }),
      ...(maxArgumentBytes === undefined ? {} : { maxArgumentBytes }),
      ...(options.onSkippedKeyword === undefined
        ? {}
        : { onSkippedKeyword: options.onSkippedKeyword }),
      describeToolset: (name) => registry.get(name)?.description,
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

  const asker = () =>
    options.approval ??
    (clientSupportsElicitation(server)
      ? createElicitationApproval(server, {
          timeoutMs: approvalConfig.timeoutMs,
          maxArgumentChars: approvalConfig.maxArgumentChars,
          oversize: approvalConfig.oversize,
          relatedRequestId: () => servedRequest.getStore(),
        })
      : undefined);
  // With replicas, an 'allow-session' answer given on one holds on all of them.
  const ask = () => {
    const adapter = asker();
    return adapter === undefined || !store.shared
      ? adapter
      : withStoredApprovals(adapter, store, id);
  };
  const approval = createGatewayApproval(approvalConfig, ask);

  const activityHook: ToolCallHook = {
    name: 'gateway-activity',
    onSettled(settled, ctx) {
      const activity: GatewayActivity = {
        sessionId: id,
        kind: 'call',
        name: settled.result.call.name,
        arguments: settled.result.call.arguments,
        via: ctx.via ?? 'direct',
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
        ...(options.callTimeoutMs === undefined ? {} : { defaultTimeoutMs: options.callTimeoutMs }),
        ...(onProgress === undefined ? {} : { onProgress }),
      });
    },
    guardrails,
    hooks: [...(options.hooks ?? []), auditHook, activityHook],
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
      const result = await servedRequest.run(extra.requestId, () =>
        callTool(request, extra, signal),
      );
      return serialisableResult(request.params.name, result);
    }, extra.signal),
  );
  const batchDeadlineMs = options.batchDeadlineMs ?? DEFAULT_MAX_CALL_TIME_MS;

  // A refusal's record goes the way of every other (a lost one is reported by the hook).
  const auditRefusal = (refusal: Omit<AuditRefusal, 'sessionId'>) => {
    void Promise.resolve()
      .then(() => auditHook.recordRefusal({ ...refusal, sessionId: id }))
      .catch(() => {});
  };

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
    const deadline = startBatchDeadline(call, batchDeadlineMs);
    const answer = handleBridgeCall(
      current,
      call,
      async (real, ctx) => {
        if (deadline?.passed()) {
          return { [DISPATCHED]: deadline.result(real, 'not run') } satisfies Dispatched;
        }
        const context: CallContext = {
          sessionId: id,
          signal: deadline === undefined ? signal : AbortSignal.any([signal, deadline.signal]),
          via: ctx.via,
          tool: ctx.tool,
          onProgress,
        };
        let result = await dispatcher(real, context);
        await settleProgress();
        // Cut short by the batch's deadline (not by the client): say so.
        if (deadline?.passed() && !signal.aborted && !succeeded(result)) {
          result = deadline.result(real, 'cancelled');
        }
        return { [DISPATCHED]: result } satisfies Dispatched;
      },
      // The pool holds more tools than this session may see: refuse every other name here,
      // and audit the refusal, which no dispatcher hook sees.
      {
        refuseUnknownNames: true,
        onRefused: (refusal) =>
          auditRefusal({
            tool: refusal.name,
            reason: refusal.error,
            via: refusal.via,
            ...(refusal.id === undefined ? {} : { callId: refusal.id }),
          }),
      },
    );
    if (answer !== undefined) {
      const settled = await answer.finally(() => deadline?.clear());
      if (isDispatched(settled)) return toCallToolResult(settled[DISPATCHED]);
      const batch = call.name === TOOL_CALL ? batchResults(settled) : undefined;
      if (batch !== undefined) return batchCallResult(batch.map(batchOutcome));
      if (call.name === TOOL_SEARCH || call.name === TOOL_DESCRIBE) {
        const isError = isBridgeError(settled);
        const activity: GatewayActivity = {
          sessionId: id,
          kind: call.name === TOOL_SEARCH ? 'search' : 'describe',
          name: call.name,
          arguments: call.arguments,
          status: isError ? 'error' : 'ok',
          durationMs: Math.round(performance.now() - began),
        };
        if (profileName !== undefined) activity.profile = profileName;
        if (isError) activity.detail = String(settled.error);
        emitActivity(activity);
      }
      return bridgeAnswerResult(call.name, settled);
    }
    deadline?.clear();
    const tool = scoped.get(call.name);
    const visible = tool !== undefined && current.tools.some((entry) => entry.name === call.name);
    if (!visible) {
      const reason = bridgeErrors.notInSession(call.name);
      auditRefusal({ tool: echoName(call.name), reason, via: 'direct' });
      return errorResult('not_in_session', reason);
    }
    const context: CallContext = {
      sessionId: id,
      signal,
      via: 'direct',
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
      onClosed(id);
      await server.close().catch(() => {});
    },
  };
  server.onclose = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    onClosed(id);
  };
  return session;
}
