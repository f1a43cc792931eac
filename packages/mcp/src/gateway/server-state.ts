import { randomUUID } from 'node:crypto';
import { type SearchLearner, ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { createAuditHook, type Guardrail } from '@tool-search/hooks';
import { createToolsetRegistry, type ToolsetRegistry } from '@tool-search/toolsets';
import {
  DEFAULT_APPROVAL_CONFIG,
  DEFAULT_GUARDRAILS_CONFIG,
  type GatewayProfile,
  type GuardrailsConfig,
} from '../config/schemas.js';
import { createStoreAuditHook } from '../store/audit-trail.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { GatewayStore } from '../store/types.js';
import { observeGateway, observeSession } from '../telemetry/gateway-observe.js';
import { DEFAULT_UPSTREAM_LIMITS } from '../upstream/limits.js';
import type { UpstreamPool } from '../upstream/pool-types.js';
import { waitForUpstreams } from '../upstream/wait.js';
import { createApprovalInbox } from './approval-inbox.js';
import { type CallDrain, createCallDrain } from './call-drain.js';
import { createConfigGuardrails } from './guardrails.js';
import { createGatewayLearner } from './learning.js';
import { createGatewayPrograms } from './program-gateway.js';
import { createGatewaySession } from './session.js';
import type { GatewaySessionContext } from './session-state.js';
import { createSettleGate, DEFAULT_SETTLE_DEADLINE_MS, type SettleGate } from './settle-gate.js';
import { createStatelessViews, type StatelessViews } from './stateless-session.js';
import { createSwitchedOffGuardrail } from './switched-off.js';
import type { GatewayActivity, GatewayServerOptions, GatewaySession } from './types.js';
import { warmUpSearch } from './warm-up.js';

/** How ready a gateway is, for a readiness probe (`GET /readyz` of an HTTP host). */
export interface GatewayReadiness {
  /** The store answers and the upstreams' first connect round is over with one ready (or none configured). */
  ready: boolean;
  /** `ok` or `unavailable` (why stays in the gateway's log: the probe needs no token). */
  store: string;
  /** The upstream servers by state, e.g. `{ ready: 2, failed: 1 }`; absent before they settle. */
  upstreams?: Record<string, number>;
  /** Why it is not ready, in words. */
  detail?: string;
}

/**
 * A host of gateway sessions on a transport of its own (an HTTP listener): the gateway's
 * `close()` stops it accepting before the drain and closes it after.
 */
export interface GatewayHost {
  /**
   * Stops taking new connections and sessions; requests in flight go on.
   *
   * @returns nothing
   * @throws nothing
   */
  stopAccepting(): void;
  /**
   * Closes, letting requests in flight finish for up to `graceMs`.
   *
   * @param options.graceMs - how long requests in flight may still finish
   * @returns once closed
   * @throws nothing
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** One gateway's state: the checked config, its open sessions and hosts. */
export interface GatewayState {
  readonly options: GatewayServerOptions;
  /** The profiles in force: a reload ({@link applyGatewayPolicy}) replaces them. */
  profiles: Record<string, GatewayProfile>;
  readonly store: GatewayStore;
  readonly sessions: Map<string, GatewaySession>;
  readonly listeners: Set<GatewayHost>;
  /** Every session's calls in flight, so that a shutdown answers each of them. */
  readonly drain: CallDrain;
  /** What every new session shares with the gateway. */
  readonly sessionContext: GatewaySessionContext;
  /** The learner of learning from use, when it is on. */
  readonly learner: SearchLearner | undefined;
  /** What stateless (2026-07-28) clients see, per credential. */
  readonly stateless: StatelessViews;
  upstreamsSettledYet: boolean;
  /** What to call when a client's session closes (its OpenTelemetry session metrics). */
  readonly sessionEnds: Map<string, () => void>;
  /** Stops the OpenTelemetry observers of the upstreams and the learner. */
  readonly stopObserving: () => void;
}

/**
 * Checks the options and sets up what every session shares.
 *
 * @throws {@link ToolSearchError} as {@link createGatewayServer} documents
 */
export function createGatewayState(options: GatewayServerOptions): GatewayState {
  const config = options.config ?? {};
  checkMilliseconds('batchDeadlineMs', options.batchDeadlineMs, 1);
  checkMilliseconds('settleDeadlineMs', options.settleDeadlineMs, 0);
  checkMilliseconds('credentialAllowMs', options.credentialAllowMs, 1);
  const registry = toolsetRegistry(options);
  const profiles = config.profiles ?? {};
  checkProfile(profiles, options.profile);
  const sessions = new Map<string, GatewaySession>();
  const sessionEnds = new Map<string, () => void>();
  const store = options.store ?? createMemoryStore();
  const drain = createCallDrain();
  const learner = createGatewayLearner(config.learning, store, options.learner);
  // The audit trail names the profile of a stateless caller too (set right below).
  const statelessProfile: { of: (id: string) => string | undefined } = { of: () => undefined };
  const sessionContext = createSessionContext(options, {
    registry,
    sessions,
    sessionEnds,
    store,
    drain,
    learner,
    statelessProfile,
  });
  const stateless = createStatelessViews(sessionContext, Object.keys(profiles).length > 0);
  statelessProfile.of = (id) => stateless.profileOf(id);
  const state: GatewayState = {
    options,
    profiles,
    store,
    sessions,
    listeners: new Set(),
    drain,
    sessionContext,
    sessionEnds,
    learner,
    stateless,
    upstreamsSettledYet: options.upstreamsReady === undefined,
    stopObserving: observeGateway(options.pool as Partial<UpstreamPool>, learner),
  };
  const settled = () => {
    state.upstreamsSettledYet = true;
  };
  void Promise.resolve(options.upstreamsReady).then(settled, settled);
  if (options.warmUp !== false) state.sessionContext.settle.whenOpen(() => warmUp(state));
  return state;
}

/** Loads the analyzer and builds each profile's index in the background, once settled. */
function warmUp(state: GatewayState): void {
  const { options, profiles, sessionContext, drain } = state;
  void warmUpSearch(sessionContext, profiles, options.profile, () => drain.draining).then(
    (report) => {
      try {
        options.onWarmUp?.(report);
      } catch {
        // A log line must not break the gateway.
      }
    },
  );
}

function createSessionContext(
  options: GatewayServerOptions,
  shared: Pick<GatewaySessionContext, 'registry' | 'store' | 'drain' | 'learner'> & {
    sessions: Map<string, GatewaySession>;
    statelessProfile: { of: (id: string) => string | undefined };
    sessionEnds: Map<string, () => void>;
  },
): GatewaySessionContext {
  const config = options.config ?? {};
  const { sessions, store } = shared;
  const settle = createSettleGate(
    options.upstreamsReady,
    options.settleDeadlineMs ?? options.upstreamsWaitMs ?? DEFAULT_SETTLE_DEADLINE_MS,
  );
  // Shared by every session: they hold no per-session state (the schema guardrail finds
  // the tool in the dispatch context, which each session resolves within its own scope).
  const guardrails = sessionGuardrails(options, config.guardrails, store);
  const auditHook = measuredWithoutAudit()
    ? createAuditHook(() => {})
    : createStoreAuditHook(
        store,
        (sessionId) =>
          sessionId === undefined
            ? undefined
            : (sessions.get(sessionId)?.profile ?? shared.statelessProfile.of(sessionId)),
        (record, error) =>
          options.onStoreError?.(
            `the audit record of a call of '${record.tool}' (session ${record.sessionId ?? '-'}) was not written: ${describeError(error)}`,
          ),
        { callDetails: config.console?.callDetails === true },
      );
  const approvalConfig = config.approval ?? DEFAULT_APPROVAL_CONFIG;
  const { learner } = shared;
  const programs = createGatewayPrograms(config.programs, config.profiles ?? {}, approvalConfig, {
    ...(config.mcpServers === undefined ? {} : { mcpServers: config.mcpServers }),
    ...(config.review === undefined ? {} : { review: config.review }),
  });
  // The program policy decides only calls that come from a program (via 'program').
  if (programs !== undefined) guardrails.push(programs.policy);
  return {
    options,
    registry: shared.registry,
    toolSearch: config.toolSearch,
    approvalConfig,
    guardrails,
    ...(config.guardrails === undefined ? {} : { rules: config.guardrails }),
    ...(config.guardrails?.maxArgumentBytes === undefined
      ? {}
      : { maxArgumentBytes: config.guardrails.maxArgumentBytes }),
    serverInfo: options.serverInfo ?? { name: 'tool-search-gateway', version: '0.0.0' },
    maxDescriptionChars:
      config.limits?.maxDescriptionChars ?? DEFAULT_UPSTREAM_LIMITS.maxDescriptionChars,
    upstreamsSettled: settledOrWaited(settle, options),
    settle,
    drain: shared.drain,
    emitActivity: (activity) => emitActivity(options, activity),
    onClosed: (closedId) => {
      sessions.delete(closedId);
      shared.sessionEnds.get(closedId)?.();
      shared.sessionEnds.delete(closedId);
    },
    store,
    auditHook,
    ...(learner === undefined ? {} : { learner }),
    ...(config.learning?.window === undefined ? {} : { learningWindow: config.learning.window }),
    ...((approvalConfig.via ?? 'elicitation') === 'elicitation'
      ? {}
      : { inbox: createApprovalInbox(store, { timeoutMs: approvalConfig.timeoutMs }) }),
    ...(programs === undefined ? {} : { programs }),
  };
}

/**
 * The guardrails of every session: the operator's off switch, the configured ones, then
 * the options' (the program policy goes last, added by its owner).
 *
 * @throws nothing
 */
export function sessionGuardrails(
  options: GatewayServerOptions,
  rules: GuardrailsConfig | undefined,
  store: GatewayStore,
): Guardrail[] {
  return [
    // The operator's off switch first: a tool switched off is refused, whatever else says.
    createSwitchedOffGuardrail(store),
    ...createConfigGuardrails(
      rules ?? DEFAULT_GUARDRAILS_CONFIG,
      options.onSkippedKeyword === undefined ? {} : { onSkippedKeyword: options.onSkippedKeyword },
    ),
    ...(options.guardrails ?? []),
  ];
}

/**
 * Whether `pnpm load --baseline` runs this gateway without its audit trail, to show what
 * the audit costs (`TOOL_SEARCH_LOAD_WITHOUT=audit`). Only that tool sets it.
 */
function measuredWithoutAudit(): boolean {
  return (process.env['TOOL_SEARCH_LOAD_WITHOUT'] ?? '').split(',').includes('audit');
}

/** An early request waits for the first decision, or for its own bound, whichever comes first. */
function settledOrWaited(settle: SettleGate, options: GatewayServerOptions): () => Promise<void> {
  const waited = waitForUpstreams(options.upstreamsReady, options.upstreamsWaitMs);
  return () => (settle.open ? Promise.resolve() : Promise.race([settle.opened, waited()]));
}

/** Checks a millisecond option (a timer's range); the message names it and its range. */
function checkMilliseconds(name: string, value: number | undefined, least: 0 | 1): void {
  if (value === undefined) return;
  if (Number.isInteger(value) && value >= least && value <= 2 ** 31 - 1) return;
  const range =
    least === 1
      ? 'a positive integer of milliseconds (at most 2147483647)'
      : 'a whole number of milliseconds from 0 to 2147483647';
  throw new ToolSearchError(
    'invalid_argument',
    `createGatewayServer: ${name} must be ${range}, got ${String(value)}.`,
  );
}

/**
 * The toolset registry of a config's `toolsets`.
 *
 * @throws {@link ToolSearchError} `invalid_config` for toolsets that do not make a registry
 */
export function toolsetRegistry(options: Pick<GatewayServerOptions, 'config'>): ToolsetRegistry {
  try {
    return createToolsetRegistry(options.config?.toolsets ?? []);
  } catch (error) {
    throw new ToolSearchError('invalid_config', `Invalid toolsets: ${describeError(error)}`, {
      cause: error,
    });
  }
}

function emitActivity(options: GatewayServerOptions, activity: GatewayActivity): void {
  try {
    options.onActivity?.(activity);
  } catch {
    // The feed must not break a call.
  }
}

/** The profile of that name; `invalid_config` naming the known ones when there is none. */
export function checkProfile(
  profiles: Record<string, GatewayProfile>,
  name: string | undefined,
): GatewayProfile | undefined {
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
}

/** Opens a session of that profile and keeps it until it closes. */
export function openSession(
  state: GatewayState,
  profileName: string | undefined,
  id: string = randomUUID(),
  principal?: string,
): GatewaySession {
  const profile = checkProfile(state.profiles, profileName);
  const session = createGatewaySession(state.sessionContext, profileName, profile, id, principal);
  state.sessions.set(id, session);
  // A client's session (not the warm-up's): counted until it closes.
  const ended = observeSession();
  if (ended !== undefined) state.sessionEnds.set(id, ended);
  return session;
}

/** Whether this gateway should get traffic: its store answers and an upstream is ready. */
export async function gatewayReadiness(state: GatewayState): Promise<GatewayReadiness> {
  const { options, store } = state;
  // Only whether it answers: `/readyz` needs no token, so where the store lives and
  // why it failed stay in the log (the store reports going down and coming back).
  let storeState = 'ok';
  try {
    await store.ping();
  } catch {
    storeState = 'unavailable';
  }
  const status = (options.pool as Partial<Pick<UpstreamPool, 'status'>>).status;
  const states = typeof status === 'function' ? status.call(options.pool) : [];
  const upstreams: Record<string, number> = {};
  for (const server of states) upstreams[server.state] = (upstreams[server.state] ?? 0) + 1;
  const settledYet = state.upstreamsSettledYet;
  // A server each profile signs in to itself serves its people whatever the operator's
  // own connection to it does.
  const upstreamsOk =
    settledYet &&
    (states.length === 0 ||
      (upstreams['ready'] ?? 0) > 0 ||
      states.some((server) => server.perProfile === true && server.state !== 'disabled'));
  const ready = storeState === 'ok' && upstreamsOk;
  const detail = ready
    ? undefined
    : storeState !== 'ok'
      ? `the store does not answer (${store.kind}); see the gateway's log`
      : settledYet
        ? 'no upstream server is ready'
        : 'the upstream servers are still connecting';
  return {
    ready,
    store: storeState,
    upstreams,
    ...(detail === undefined ? {} : { detail }),
  };
}
