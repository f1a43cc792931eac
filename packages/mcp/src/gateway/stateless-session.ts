import { createHash, randomBytes } from 'node:crypto';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { toMcpTool } from '@tool-search/core';
import type { GatewayProfile } from '../config/schemas.js';
import { serialisableResult } from '../tool-result/serialisable-result.js';
import { createGatewayApproval } from './approval.js';
import { createFeatureSession } from './feature-session.js';
import { sessionLearning } from './learning.js';
import { createLiveCalls, type LiveCall, type LiveCalls } from './modern-live.js';
import { isRelayState, openModernRelay, redeemRelayState } from './modern-relay.js';
import { createSessionProgram } from './program-session.js';
import { featuresOf, recordRelayed } from './protocol-features.js';
import { askerOf, createSessionDispatcher, createSessionState } from './session.js';
import { callSessionTool, type SessionCallExtra } from './session-call.js';
import {
  assembleScoped,
  type GatewaySessionContext,
  type SessionState,
  scopedPoolTools,
  upstreamsSettledFor,
} from './session-state.js';
import { argumentsHash } from './signed-state.js';
import {
  APPROVAL_INPUT_KEY,
  createStatelessApproval,
  DEFAULT_CREDENTIAL_ALLOW_MS,
} from './stateless-approval.js';
import {
  createStatelessFeatures,
  type GatewayStatelessFeatures,
  statelessLogRelay,
} from './stateless-features.js';
import { asksOneCall, listedTools } from './stateless-list.js';
import {
  earlyAnswer,
  holdLive,
  issuedFor,
  missingCapabilities,
  relayRequest,
  resumeLive,
} from './stateless-relay.js';
import type {
  StatelessCallContext,
  StatelessCallOutcome,
  StatelessCallParams,
  StatelessToolList,
} from './stateless-types.js';
import { withWorkingSetArgument } from './working-set.js';
import { openWorkingSet, takeWorkingSet } from './working-set-call.js';

export type {
  StatelessCallContext,
  StatelessCallOutcome,
  StatelessCallParams,
  StatelessToolList,
} from './stateless-types.js';

/** The prefix of the id a credential's stateless calls carry in audit, approvals and learning. */
export const STATELESS_ID_PREFIX = 'stateless:';

/**
 * The gateway as a stateless (2026-07-28) client of one credential sees it: the same
 * scope, assembly, guardrails, approval, audit and learning as a session of that
 * profile, keyed by the credential instead of a session. Holds nothing a request
 * leaves behind: any replica answers any request the same way.
 */
export interface GatewayStatelessView {
  /** The profile the credential selects. */
  readonly profile: string | undefined;
  /** The credential's principal (`''` without tokens). */
  readonly principal: string;
  /** Its resources, prompts and completions; absent when the pool serves tools only. */
  readonly features: GatewayStatelessFeatures | undefined;
  /**
   * The credential's tool list, once the upstreams settled.
   *
   * @returns the tools and their cache scope
   * @throws nothing
   */
  listTools(): Promise<StatelessToolList>;
  /**
   * Calls a tool: a bridge tool through the bridge, a listed tool directly, through the
   * same hooks pipeline as a session's calls.
   *
   * A call that needs a person's approval, from a client that declared elicitation,
   * answers a question instead (`input_required`): the retry with the answer and the
   * echoed `requestState` runs exactly that call (the same tool and final arguments), once.
   * What the upstream asks during the call is passed on the same way (`input`), the
   * gateway's signed state around the upstream's; a 2025-era upstream's call is held live
   * on this gateway until the retry.
   *
   * The bridge tools take an optional `working_set` handle (see `WORKING_SET_ARGUMENT`),
   * taken off before the bridge and the hooks pipeline see the call: their answers carry
   * the next one (a `tool_call` only when it was given one); a refused handle answers an
   * error result (`invalid_argument`) and the call does not run.
   *
   * @param params - the call's name, arguments and `_meta`
   * @param context - the request id, the client's signal, notification channel, answers
   * and declared capabilities
   * @returns the MCP result (errors the model sees are results, not throws), a question, or
   * the capabilities an upstream needs that the client did not declare
   * @throws {@link ToolSearchError} `invalid_argument` (`data.field` `requestState`) for a
   * forged, expired, replayed or another principal's `requestState`, one issued for another
   * request, or one of a live call this gateway does not hold; the shutdown error once the
   * gateway drains
   */
  callTool(
    params: StatelessCallParams,
    context: StatelessCallContext,
  ): Promise<StatelessCallOutcome>;
}

/** One credential's stateless state, derived from the config and the pool alone. */
interface StatelessEntry {
  readonly state: SessionState;
  readonly view: GatewayStatelessView;
  /** The pool's tools changed since the last assembly. */
  stale: boolean;
  readonly unsubscribe: () => void;
}

/** The stateless views of a gateway, one per credential. */
export interface StatelessViews {
  /**
   * The view of a credential, made on first use.
   *
   * @throws nothing (the profile was checked by the caller)
   */
  view(
    profileName: string | undefined,
    profile: GatewayProfile | undefined,
    principal: string,
    stateKey?: Uint8Array,
  ): GatewayStatelessView;
  /** The profile of a stateless id, for the audit trail. */
  profileOf(id: string): string | undefined;
  /** Forgets every view. */
  close(): void;
}

/**
 * The stateless views of one gateway: per credential (a bounded set: the config's
 * tokens), a session state that is never connected and whose assembly is rebuilt from
 * the pool alone (no previous assembly: two replicas decide alike).
 *
 * @param context - what every session shares with the gateway
 * @param hasProfiles - whether lists depend on the caller (the config has profiles)
 * @returns the views
 * @throws nothing
 */
export function createStatelessViews(
  context: GatewaySessionContext,
  hasProfiles: boolean,
  ownKey: Uint8Array = randomBytes(32),
): StatelessViews {
  const entries = new Map<string, StatelessEntry>();
  const live = createLiveCalls({ timeoutMs: context.approvalConfig.timeoutMs });
  return {
    view(profileName, profile, principal, stateKey = ownKey) {
      const keyId = createHash('sha256').update(stateKey).digest('hex').slice(0, 16);
      const key = `${principal}\u0000${profileName ?? ''}\u0000${keyId}`;
      let entry = entries.get(key);
      if (entry === undefined) {
        entry = createEntry(
          context,
          { profileName, profile, principal, hasProfiles, stateKey },
          live,
        );
        entries.set(key, entry);
      }
      return entry.view;
    },
    profileOf(id) {
      for (const entry of entries.values()) if (entry.state.id === id) return entry.view.profile;
      return undefined;
    },
    close() {
      live.close();
      for (const entry of entries.values()) entry.unsubscribe();
      entries.clear();
    },
  };
}

function createEntry(
  context: GatewaySessionContext,
  who: {
    profileName: string | undefined;
    profile: GatewayProfile | undefined;
    principal: string;
    hasProfiles: boolean;
    stateKey: Uint8Array;
  },
  liveCalls: LiveCalls,
): StatelessEntry {
  const { profileName, profile, principal } = who;
  const state = createSessionState(context, profileName, profile, STATELESS_ID_PREFIX + principal);
  const learning = sessionLearning(context.learner, profileName, principal, context.learningWindow);
  if (learning !== undefined) state.learning = learning;
  const program = createSessionProgram(state, profile);
  if (program !== undefined) state.program = program;
  const { approvalConfig, store } = context;
  const approval = createStatelessApproval({
    principal,
    store,
    key: who.stateKey,
    timeoutMs: approvalConfig.timeoutMs,
    allowForMs: context.options.credentialAllowMs ?? DEFAULT_CREDENTIAL_ALLOW_MS,
    fallback: askerOf(state),
    policyFallback: approvalConfig.fallback,
    question:
      approvalConfig.maxArgumentChars === undefined
        ? {}
        : { maxArgumentChars: approvalConfig.maxArgumentChars },
  });
  state.dispatcher = createSessionDispatcher(
    state,
    createGatewayApproval(approvalConfig, () => approval.adapter),
  );
  const relayOptions = {
    principal,
    key: who.stateKey,
    store,
    features: featuresOf(context),
    timeoutMs: approvalConfig.timeoutMs,
    sessionId: state.id,
  };
  // What the upstreams asked this credential's calls (relayed or refused) goes to its feed
  // and trail as a session's does.
  const hub = featuresOf(context);
  const stopRelays = hub?.onEvent((event) => {
    if (event.kind === 'relayed' && event.record.sessionId === state.id) {
      recordRelayed(createFeatureSession(state, hub), event.record);
    }
  });
  const stopChanges = context.options.pool.onToolsChanged(() => {
    entry.stale = true;
  });
  const entry: StatelessEntry = {
    state,
    stale: true,
    unsubscribe: () => {
      stopChanges();
      stopRelays?.();
    },
    view: {
      profile: profileName,
      principal,
      features: createStatelessFeatures(featuresOf(context), () => current(entry), {
        settled: context.upstreamsSettled,
        cacheScope: who.hasProfiles ? 'private' : 'public',
        // A prompt get's or resource read's upstream questions reach the client as a call's do.
        relay: (method, request, run) => relayRequest(relayOptions, method, request, run),
      }),
      listTools: async () => {
        await upstreamsSettledFor(context, profileName);
        return {
          tools: listedTools(current(entry)).map(withWorkingSetArgument),
          cacheScope: who.hasProfiles ? 'private' : 'public',
        };
      },
      callTool: async (given, callContext) => {
        // The handle is the modern leg's: off before the bridge and the hooks see the call.
        const taken = takeWorkingSet(given);
        const { params } = taken;
        const raw = callContext.requestState;
        // A live call's retry takes its call from this replica before the state is redeemed.
        let held: LiveCall | undefined;
        const relayed =
          raw !== undefined && isRelayState(raw)
            ? await redeemRelayState(relayOptions, raw, (state) => {
                issuedFor(state, 'tools/call');
                if (state.l !== undefined) held = liveCalls.take(state.l, principal);
              }).catch((error: unknown) => {
                // Taken but not redeemed (the store failed or the state was used): end it upstream.
                held?.abort('its answer could not be redeemed');
                throw error;
              })
            : undefined;
        const oneCall = asksOneCall(params);
        if (relayed !== undefined && held !== undefined) {
          // The retry's stream hears the held call's log lines from now on.
          held.logTo(statelessLogRelay(state.id, callContext.logLevel, callContext.notify).log);
          return resumeLive({
            liveCalls,
            options: relayOptions,
            live: held,
            state: relayed,
            params,
            callContext,
          });
        }
        const early = earlyAnswer(relayOptions, relayed, oneCall, callContext);
        if (early !== undefined) return early;
        const channel = await approval.open({
          // A batch of several calls or a program may run other calls before one needs a
          // person: the retry would run them again, so those are answered as today.
          elicitation: callContext.elicitation === true && oneCall,
          ...(raw === undefined || relayed !== undefined ? {} : { requestState: raw }),
          answer: callContext.inputResponses?.[APPROVAL_INPUT_KEY],
          approved: relayed?.a === 1 ? { t: relayed.t, h: relayed.h } : undefined,
        });
        // One call's upstream questions go to its client; a batch's or a program's are
        // not asked (the retry would run their other calls again).
        const relay = oneCall
          ? openModernRelay(
              {
                ...relayOptions,
                capabilities: callContext.capabilities,
                approvedNow: channel.allows,
              },
              relayed === undefined
                ? undefined
                : { state: relayed, inputResponses: callContext.inputResponses },
            )
          : undefined;
        // A 2025-era upstream that asks mid-call: the call stays live here while its client is asked.
        const live = oneCall
          ? liveCalls.open({
              principal,
              capabilities: callContext.capabilities,
              sessionId: state.id,
              target: { t: params.name, h: argumentsHash(params.arguments ?? {}) },
            })
          : undefined;
        // Log lines of the call at the request's level go on its stream.
        const logRelay = statelessLogRelay(state.id, callContext.logLevel, callContext.notify);
        live?.logTo(logRelay.log);
        try {
          const run = context.drain.run(async (signal) => {
            await upstreamsSettledFor(context, profileName);
            const request = { method: 'tools/call', params } as CallToolRequest;
            // The call's own key: its approval channel is found by it (client ids may repeat).
            const extra: SessionCallExtra = {
              requestId: channel.id,
              sendNotification: (notification) =>
                callContext.notify?.(notification as never) ?? Promise.resolve(),
              relay: logRelay,
              ...(relay === undefined
                ? {}
                : {
                    input: {
                      onInputRequired: relay.onInputRequired,
                      resumeInput: relay.resumeInput,
                      meta: relay.meta,
                      // A held call's questions go to its client; its log lines as any call's.
                      ...(live === undefined ? {} : { relay: live.relay }),
                    },
                  }),
            };
            const caller = { key: who.stateKey, principal, profile: profileName };
            const opened = openWorkingSet(taken, caller, current(entry));
            if (opened.refusal !== undefined) return opened.refusal;
            const called = await callSessionTool(opened.state, request, extra, signal);
            return opened.finish(params.name, serialisableResult(params.name, called));
          }, live?.signal ?? callContext.signal);
          const settled =
            live === undefined ? { result: await run } : await live.settle(run, callContext.signal);
          if ('question' in settled) {
            return holdLive({
              liveCalls,
              options: relayOptions,
              live: live!,
              question: settled.question,
            });
          }
          const { result } = settled;
          const question = channel.question();
          if (question !== undefined) return { question, key: APPROVAL_INPUT_KEY };
          const asked = relay?.question();
          if (asked !== undefined) return { input: asked };
          return missingCapabilities(result, callContext.capabilities) ?? { result };
        } finally {
          channel.close();
        }
      },
    },
  };
  return entry;
}

/**
 * The credential's state with an assembly of the pool's current tools. Made from the pool
 * and the config alone (never from an earlier assembly), so every replica lists alike.
 */
function current(entry: StatelessEntry): SessionState {
  const { state } = entry;
  if (!entry.stale && state.assembly !== undefined) return state;
  entry.stale = false;
  const tools = scopedPoolTools(state.context, state.scope, state.profileName);
  state.scoped = new Map(tools.map((tool) => [tool.name, tool]));
  state.assembly = assembleScoped(state.context, tools, undefined, state.telemetry, {
    ...(state.learning === undefined ? {} : { learning: state.learning }),
    ...(state.program === undefined ? {} : { program: state.program }),
  });
  state.listed = state.assembly.tools.map(toMcpTool);
  return state;
}
