import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  ListToolsRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { bridgeErrors, createBridgeTelemetry } from '@tool-search/bridge';
import {
  type ApprovalRequest,
  createDispatcher,
  type Dispatcher,
  type ToolCallHook,
} from '@tool-search/hooks';
import type { GatewayProfile } from '../config/schemas.js';
import { withStoredApprovals } from '../store/stored-approvals.js';
import { observeToolsCall } from '../telemetry/request-observe.js';
import { errorResult } from '../tool-result/error-result.js';
import { serialisableResult } from '../tool-result/serialisable-result.js';
import { DEFAULT_MAX_CALL_TIME_MS } from '../upstream/call.js';
import { activityDetail, activityStatus } from './activity.js';
import {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './approval.js';
import { LENIENT_CALL_TOOL_REQUEST_SCHEMA } from './call-request-schema.js';
import { callAsOperator } from './console-call.js';
import {
  disclosureCapabilities,
  handleDisclosureRequests,
  listedFor,
  queryTools,
} from './disclosure.js';
import { LIST_REQUEST_SCHEMA, readListParams } from './disclosure-requests.js';
import { createDisclosureState } from './disclosure-state.js';
import { changedHands } from './identity-check.js';
import { sessionLearning } from './learning.js';
import { createSessionProgram } from './program-session.js';
import { featureCapabilities, installProtocolFeatures } from './protocol-features.js';
import { type CallContext, callSessionTool } from './session-call.js';
import {
  type GatewaySessionContext,
  reassemble,
  type SessionState,
  scopeOfProfile,
  upstreamsSettledFor,
} from './session-state.js';
import type { GatewayActivity, GatewaySession } from './types.js';

/**
 * Creates one client's session: its own scope, assembly, dispatcher (guardrails,
 * hooks, approval, then the tool source) and MCP server, not yet connected.
 *
 * @param context - what the session shares with its gateway
 * @param profileName - the session's profile name, when it has one
 * @param profile - that profile, already checked against the config
 * @param id - the session's id
 * @param principal - who opened it (its token's principal), the unit of learning's caps
 * @returns the session
 * @throws nothing
 */
export function createGatewaySession(
  context: GatewaySessionContext,
  profileName: string | undefined,
  profile: GatewayProfile | undefined,
  id: string,
  principal?: string,
): GatewaySession {
  const state = createSessionState(context, profileName, profile, id);
  const learning = sessionLearning(context.learner, profileName, principal, context.learningWindow);
  if (learning !== undefined) state.learning = learning;
  const program = createSessionProgram(state, profile);
  if (program !== undefined) state.program = program;
  reassemble(state);
  const approval = sessionApproval(state);
  state.dispatcher = createSessionDispatcher(state, approval);
  handleRequests(state);
  const stopFeatures = installProtocolFeatures(state);
  const unsubscribe = context.options.pool.onToolsChanged(() => {
    // Until the first connect round settles, the list is partial: the decision waits.
    if (state.closed || !context.settle.open) return;
    if (reassemble(state) && state.initialized) announce(state);
  });
  const stopWaiting = context.settle.open
    ? () => {}
    : context.settle.whenOpen(() => takeFirstDecision(state));
  const { server } = state;
  server.oninitialized = () => {
    state.initialized = true;
  };
  const end = () => {
    state.closed = true;
    unsubscribe();
    stopFeatures();
    stopWaiting();
    context.onClosed(id);
  };
  const session: GatewaySession = {
    id,
    profile: profileName,
    server,
    assembly: () => state.assembly!,
    tools: () => [...state.scoped.values()],
    telemetry: () => state.telemetry,
    callAsOperator: (call, options) => callAsOperator(state, call, options),
    async close() {
      if (state.closed) return;
      end();
      await server.close().catch(() => {});
    },
  };
  server.onclose = () => {
    if (state.closed) return;
    end();
  };
  refreshers.set(session, (next) => refreshPolicy(state, next));
  return session;
}

/** How each open session takes a reloaded policy (see {@link refreshSessionPolicy}). */
const refreshers = new WeakMap<GatewaySession, (profile: GatewayProfile | undefined) => void>();

/**
 * Makes an open session follow the gateway's current policy (the guardrails and approval
 * in its context, its profile's scope): its next call meets the new rules, and a 2025
 * client is told `tools/list_changed` when its list changed. Calls in flight finish
 * under the rules they started with.
 *
 * @param session - a session of this module
 * @param profile - its profile as the reloaded config defines it
 * @throws nothing
 */
export function refreshSessionPolicy(
  session: GatewaySession,
  profile: GatewayProfile | undefined,
): void {
  refreshers.get(session)?.(profile);
}

function refreshPolicy(state: SessionState, profile: GatewayProfile | undefined): void {
  if (state.closed) return;
  state.scope = scopeOfProfile(profile);
  state.dispatcher = createSessionDispatcher(state, sessionApproval(state));
  if (reassemble(state) && state.initialized) announce(state);
}

function announce(state: SessionState): void {
  void state.server.sendToolListChanged().catch(() => {});
}

/**
 * The decision on the settled list. The client is told only when it was served another
 * list before (its wait ran out first): one that has not listed yet sees this one first.
 */
function takeFirstDecision(state: SessionState): void {
  if (state.closed) return;
  reassemble(state);
  if (state.initialized && state.servedKey !== undefined && state.servedKey !== state.listedKey) {
    announce(state);
  }
}

export function createSessionState(
  context: GatewaySessionContext,
  profileName: string | undefined,
  profile: GatewayProfile | undefined,
  id: string,
): SessionState {
  const { options } = context;
  const scope = scopeOfProfile(profile);
  const server = new Server(context.serverInfo, {
    capabilities: {
      tools: { listChanged: true },
      ...featureCapabilities(context, scope),
      ...(options.experimentalCatalog === false ? {} : { experimental: disclosureCapabilities() }),
    },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  return {
    context,
    id,
    profileName,
    scope,
    server,
    telemetry: createBridgeTelemetry(),
    batchDeadlineMs: options.batchDeadlineMs ?? DEFAULT_MAX_CALL_TIME_MS,
    dispatcher: notYet,
    scoped: new Map(),
    assembly: undefined,
    listed: [],
    listedKey: '',
    servedKey: undefined,
    disclosure: createDisclosureState(),
    initialized: false,
    closed: false,
  };
}

const notYet: Dispatcher = () => Promise.reject(new Error('the session is not set up yet'));

/** Who the session's client is asked through: MCP elicitation, when it supports it. */
function elicitationOf(state: SessionState) {
  const { approvalConfig } = state.context;
  return clientSupportsElicitation(state.server)
    ? createElicitationApproval(state.server, {
        timeoutMs: approvalConfig.timeoutMs,
        maxArgumentChars: approvalConfig.maxArgumentChars,
        oversize: approvalConfig.oversize,
        relatedRequestId: (request) => servedRequestOf(state, request),
      })
    : undefined;
}

/**
 * The client request a call of this session serves, from the call's own context (the
 * gateway puts it there, so no async context is needed), when it is known.
 */
function servedRequestOf(state: SessionState, request: ApprovalRequest): RequestId | undefined {
  const context = request.context;
  if (context?.sessionId !== state.id) return undefined;
  const id = context['requestId'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Who is asked, by `approval.via`: the options' adapter, the client, or the console's inbox. */
export function askerOf(state: SessionState) {
  const { options, approvalConfig, inbox } = state.context;
  const session = {
    id: state.id,
    ...(state.profileName === undefined ? {} : { profile: state.profileName }),
  };
  const console = () => inbox?.adapter(session);
  return () => {
    if (options.approval !== undefined) return options.approval;
    if (approvalConfig.via === 'console') return console();
    const elicitation = elicitationOf(state);
    return elicitation ?? (approvalConfig.via === 'elicitation-or-console' ? console() : undefined);
  };
}

/** The approval of the session's calls: the options' adapter, the client, or the console. */
export function sessionApproval(state: SessionState) {
  const { approvalConfig, store } = state.context;
  const asker = askerOf(state);
  // With replicas, an 'allow-session' answer given on one holds on all of them.
  const ask = () => {
    const adapter = asker();
    return adapter === undefined || !store.shared
      ? adapter
      : withStoredApprovals(adapter, store, state.id);
  };
  return createGatewayApproval(approvalConfig, ask);
}

/** The hook that sends every settled call to the activity feed. */
function activityHook(state: SessionState): ToolCallHook {
  return {
    name: 'gateway-activity',
    onSettled(settled, ctx) {
      // Nobody listens to the feed (no console, no onActivity): nothing to build.
      if (state.context.options.onActivity === undefined) return;
      const activity: GatewayActivity = {
        sessionId: state.id,
        kind: 'call',
        name: settled.result.call.name,
        arguments: settled.result.call.arguments,
        via: ctx.via ?? 'direct',
        ...(ctx.programId === undefined ? {} : { programId: ctx.programId }),
        status: activityStatus(settled.result),
        durationMs: Math.round(settled.durationMs),
      };
      if (state.profileName !== undefined) activity.profile = state.profileName;
      const detail = activityDetail(settled.result);
      if (detail !== undefined) activity.detail = detail;
      state.context.emitActivity(activity);
    },
  };
}

/** The session's pipeline: guardrails, hooks, approval, then the tool source. */
export function createSessionDispatcher(
  state: SessionState,
  approval: ReturnType<typeof sessionApproval>,
): Dispatcher {
  const { options, guardrails, auditHook, approvalConfig } = state.context;
  return createDispatcher({
    async execute(call, ctx) {
      // A hook may rename a call: the scope is checked on the final name too.
      if (!state.scoped.has(call.name)) {
        return errorResult('not_in_session', bridgeErrors.notInSession(call.name));
      }
      // The policies decided on one tool; a rename while the call waited (for a
      // person's approval, say) may have given its name to another.
      const changed = changedHands(call.name, ctx.tool, state.scoped.get(call.name));
      if (changed !== undefined) return errorResult('tool_changed', changed);
      // The dispatcher hands the caller's context through: the client's progress
      // listener, when it asked for progress.
      const { onProgress, relay, meta, onInputRequired, resumeInput } = ctx as CallContext;
      return options.pool.callTool(call.name, call.arguments, {
        signal: ctx.signal,
        ...(state.profileName === undefined ? {} : { profile: state.profileName }),
        ...(relay === undefined ? {} : { relay }),
        ...(onInputRequired === undefined ? {} : { onInputRequired }),
        ...(resumeInput === undefined ? {} : { resumeInput }),
        ...(meta === undefined ? {} : { meta }),
        ...(options.callTimeoutMs === undefined ? {} : { defaultTimeoutMs: options.callTimeoutMs }),
        ...(onProgress === undefined ? {} : { onProgress }),
      });
    },
    guardrails,
    hooks: [...(options.hooks ?? []), auditHook, activityHook(state)],
    ...(approval === undefined ? {} : { approval }),
    resolveTool: (name) => state.scoped.get(name),
    timeouts: { approval: approvalConfig.timeoutMs },
    ...(state.context.options.config?.telemetry?.recordContent === true
      ? { telemetry: { recordContent: true } }
      : {}),
  });
}

/** Answers `tools/list` and `tools/call` once the upstreams settled. */
function handleRequests(state: SessionState): void {
  const { drain } = state.context;
  const upstreamsSettled = () => upstreamsSettledFor(state.context, state.profileName);
  const experimental = state.context.options.experimentalCatalog !== false;
  state.server.setRequestHandler(
    experimental ? LIST_REQUEST_SCHEMA : ListToolsRequestSchema,
    async (request) => {
      const { query } = experimental ? readListParams(request.params) : {};
      await upstreamsSettled();
      if (query !== undefined) return { tools: await queryTools(state, query) };
      state.servedKey = state.listedKey;
      return { tools: listedFor(state) };
    },
  );
  if (experimental) handleDisclosureRequests(state);
  // The lenient schema lets the SDK check the request itself: bad params (say,
  // `arguments` that are a string) get -32602 Invalid params instead of -32603.
  state.server.setRequestHandler(LENIENT_CALL_TOOL_REQUEST_SCHEMA, (raw, extra) =>
    drain.run(async (signal) => {
      await upstreamsSettled();
      // The SDK's server has just checked this very request against CallToolRequestSchema
      // (a bad one never gets here): parsing it again would only copy it.
      const request = raw as CallToolRequest;
      const session = { id: state.id, knows: (name: string) => state.scoped.has(name) };
      const result = await observeToolsCall(session, request, extra, () =>
        callSessionTool(state, request, extra, signal),
      );
      return serialisableResult(request.params.name, result);
    }, extra.signal),
  );
}
