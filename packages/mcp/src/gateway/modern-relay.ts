import { randomUUID } from 'node:crypto';
import type { InputRequests, InputResponses } from '@modelcontextprotocol/client';
import { ToolSearchError } from '@tool-search/core';
import type { GatewayStore } from '../store/types.js';
import type { UpstreamFeatures } from '../upstream/features/upstream-features.js';
import {
  UpstreamInputDeferred,
  type UpstreamInputHandler,
  type UpstreamInputResume,
} from '../upstream/input-required.js';
import {
  argumentsHash,
  readSignedState,
  type SignedStateEnvelope,
  signState,
} from './signed-state.js';

/** The prefix of an upstream's `inputRequests` key that could be taken for the gateway's own. */
export const UPSTREAM_INPUT_PREFIX = 'upstream:';

/** The key of the gateway's consent question before a server samples (`sampling: ask`). */
export const SAMPLING_CONSENT_KEY = 'sampling-consent';

/** The longest upstream `requestState` the gateway carries inside its own. */
export const MAX_UPSTREAM_STATE = 16_384;

/** The longest relay `requestState` the gateway reads back. */
const MAX_RELAY_STATE = 65_536;

/** The most questions one upstream round may ask. */
const MAX_INPUT_REQUESTS = 16;

const GATEWAY_KEYS: ReadonlySet<string> = new Set(['approval', SAMPLING_CONSENT_KEY]);

const RELAYED = new Map([
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
  ['roots/list', 'roots'],
]);

/** What a relay state holds: the call it belongs to and the upstream's own state. */
interface RelayState extends SignedStateEnvelope {
  /** The nonce: the state is redeemed once. */
  n: string;
  /** The server that asked. */
  s: string;
  /** The tool (exposed name) and the hash of the final arguments sent upstream. */
  t: string;
  h: string;
  /** Rounds answered so far. */
  r: number;
  /** The upstream's keys that were asked. */
  k: string[];
  /** The upstream's `requestState`, opaque. */
  u?: string;
  /** The call's approval was given: it covers the call's rounds. */
  a?: 1;
  /** The upstream's questions held back until the user allows the server to sample. */
  c?: InputRequests;
  /** The nonce of a call held live on the replica that asked (a 2025-era server's question). */
  l?: string;
  /** The request's method when it is not `tools/call` (`prompts/get`, `resources/read`). */
  m?: string;
}

/**
 * The key a client sees for an upstream's key: kept, unless it could be taken for one of
 * the gateway's own (or starts with the prefix), then prefixed. No two keys meet.
 *
 * @throws nothing
 */
export function clientInputKey(key: string): string {
  return GATEWAY_KEYS.has(key) || key.startsWith(UPSTREAM_INPUT_PREFIX)
    ? `${UPSTREAM_INPUT_PREFIX}${key}`
    : key;
}

/** Whether a `requestState` claims to be a relay's (checked for real by {@link readRelayState}). */
export function isRelayState(raw: string): boolean {
  const body = raw.split('.')[0] ?? '';
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'k' in parsed && 's' in parsed;
  } catch {
    return false;
  }
}

/** The question a stateless call answers with: the upstream's (or the gateway's) and our state. */
export interface RelayQuestion {
  inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
  requestState: string;
}

/** What one stateless call's relay needs. */
export interface ModernRelayOptions {
  principal: string;
  key: Uint8Array;
  store: GatewayStore;
  features: UpstreamFeatures | undefined;
  /** What the client declared in the request's `_meta` (its capabilities). */
  capabilities: Record<string, unknown> | undefined;
  /** How long the client has to answer. */
  timeoutMs: number;
  /** The session id the relay records carry. */
  sessionId: string;
  /** This request answered the call's approval (allowing it): it covers the call's rounds. */
  approvedNow?: boolean;
}

/** One stateless call's relay of its upstream's questions. */
export interface ModernRelayCall {
  /** Answers the upstream's `input_required` by deferring it to the client. */
  readonly onInputRequired: UpstreamInputHandler;
  /** The retry's answers for the round its state deferred. */
  readonly resumeInput: UpstreamInputResume | undefined;
  /** The client's capabilities the gateway can relay, for the upstream's `_meta`. */
  readonly meta: Record<string, unknown>;
  /** Whether the state says the call's approval was given. */
  readonly approved: { t: string; h: string } | undefined;
  /** The question to answer with, when the upstream asked. */
  question(): RelayQuestion | undefined;
}

/**
 * Reads a relay's `requestState` back and redeems it (once, through the store).
 * `before` checks it first (a live call's retry takes its call from this replica): a
 * state it refuses stays unredeemed, for a retry on the right replica.
 *
 * @throws {@link ToolSearchError} `invalid_argument` (`data.field` `requestState`) for a
 * forged, altered, expired, replayed or another principal's state
 */
export async function redeemRelayState(
  options: Pick<ModernRelayOptions, 'key' | 'principal' | 'store'>,
  raw: string,
  /** Checks the verified state before it is redeemed: a throw refuses it unredeemed. */
  before?: (state: RelayState) => void,
): Promise<RelayState> {
  const now = Date.now();
  const state = readSignedState<RelayState>(options.key, 'relay', raw, {
    principal: options.principal,
    now,
    maxLength: MAX_RELAY_STATE,
    advice: 'call the tool again',
  });
  before?.(state);
  const { store } = options;
  if (
    store.claimOnce === undefined ||
    !(await store.claimOnce(`relay:${state.n}`, state.e - now + 1000))
  ) {
    throw new ToolSearchError(
      'invalid_argument',
      'The requestState was already used: call the tool again.',
      { data: { field: 'requestState' } },
    );
  }
  return state;
}

/** The client's capabilities among those the gateway relays (sampling, elicitation, roots). */
function relayable(capabilities: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of RELAYED.values()) {
    const value = capabilities?.[name];
    if (typeof value === 'object' && value !== null) out[name] = value;
  }
  return out;
}

/** Whether the client's capabilities cover a request of this method and params. */
export function declares(
  capabilities: Record<string, unknown>,
  method: string,
  params: unknown,
): boolean {
  const name = RELAYED.get(method);
  if (name === undefined) return false;
  const declared = capabilities[name] as Record<string, unknown> | undefined;
  if (declared === undefined) return false;
  const p = (params ?? {}) as Record<string, unknown>;
  if (name === 'sampling') return p['tools'] === undefined || declared['tools'] !== undefined;
  if (name === 'elicitation' && p['mode'] === 'url') return declared['url'] !== undefined;
  return true;
}

/**
 * The relay of one stateless (2026-07-28) call: an upstream's `input_required` becomes the
 * gateway's own, whose signed `requestState` (purpose `relay`) carries the upstream's
 * state opaque inside, bound to the principal, the server, the tool and the hash of the
 * final arguments, expiring and redeemed once; the retry's answers resume the call.
 *
 * @param options - who, the key, the store, the client's capabilities
 * @param retry - the verified state and the answers of a retry
 * @returns the call's relay
 * @throws nothing
 */
export function openModernRelay(
  options: ModernRelayOptions,
  retry?: { state: RelayState; inputResponses: Record<string, unknown> | undefined },
): ModernRelayCall {
  const capabilities = relayable(options.capabilities);
  let asked: RelayQuestion | undefined;
  let resumed = false;
  const issue = (state: Omit<RelayState, 'v' | 'p' | 'e' | 'n'>) => {
    const signed = signState<RelayState>(options.key, 'relay', {
      v: 1,
      p: options.principal,
      e: Date.now() + options.timeoutMs,
      n: randomUUID(),
      ...state,
    });
    // A state the gateway would not read back is not handed out.
    if (signed.length > MAX_RELAY_STATE) {
      throw new Error(
        `server '${state.s}' asked more than the gateway carries in one requestState (${signed.length} characters; at most ${MAX_RELAY_STATE})`,
      );
    }
    return signed;
  };
  const refuse = (server: string, method: string, detail: string): never => {
    options.features?.recordRelay({
      server,
      sessionId: options.sessionId,
      method: method as never,
      status: 'denied',
      detail,
    });
    throw new Error(detail);
  };
  const onInputRequired: UpstreamInputHandler = async (inputRequests, context) => {
    const { server } = context;
    const entries = Object.entries(inputRequests);
    if (entries.length > MAX_INPUT_REQUESTS) {
      throw new Error(
        `server '${server}' asked ${entries.length} questions at once; the gateway relays at most ${MAX_INPUT_REQUESTS}`,
      );
    }
    if ((context.requestState?.length ?? 0) > MAX_UPSTREAM_STATE) {
      throw new Error(
        `server '${server}' sent a requestState of ${context.requestState?.length} characters; the gateway carries at most ${MAX_UPSTREAM_STATE}`,
      );
    }
    const policy = options.features?.relayPolicy(server) ?? { sampling: 'ask', held: false };
    let samples = false;
    for (const [, request] of entries) {
      const method = String(request?.method);
      if (!RELAYED.has(method)) {
        throw new Error(`the gateway does not relay ${method.slice(0, 60)}`);
      }
      if (!declares(capabilities, method, (request as { params?: unknown }).params)) {
        refuse(
          server,
          method,
          `the client of this call did not declare what ${method} needs, so the gateway cannot pass it on`,
        );
      }
      if (method === 'sampling/createMessage') {
        if (policy.held)
          refuse(server, method, `server '${server}' has tools held for review: it may not sample`);
        if (policy.sampling === 'deny')
          refuse(server, method, `the gateway's policy denies sampling to server '${server}'`);
        samples = true;
      }
    }
    const base = {
      s: server,
      ...(context.method === undefined ? {} : { m: context.method }),
      t: context.tool,
      h: argumentsHash(context.arguments),
      r: context.round,
      k: entries.map(([key]) => key),
      ...(context.requestState === undefined ? {} : { u: context.requestState }),
      ...(retry?.state.a === 1 || options.approvedNow === true ? { a: 1 as const } : {}),
    };
    if (samples && policy.sampling === 'ask') {
      if (!('elicitation' in capabilities)) {
        refuse(
          server,
          'sampling/createMessage',
          `server '${server}' may sample only with the user's consent, and the client of this call cannot be asked (it did not declare elicitation)`,
        );
      }
      asked = {
        inputRequests: { [SAMPLING_CONSENT_KEY]: consentQuestion(server) },
        requestState: issue({ ...base, c: inputRequests }),
      };
    } else {
      asked = { inputRequests: mapped(inputRequests), requestState: issue(base) };
    }
    for (const [, request] of entries) {
      options.features?.recordRelay({
        server,
        sessionId: options.sessionId,
        method: request.method as never,
        status: 'ok',
        detail: 'passed on to the client by input_required',
      });
    }
    throw new UpstreamInputDeferred();
  };
  const state = retry?.state;
  const resumeInput: UpstreamInputResume | undefined =
    state === undefined
      ? undefined
      : (call) => {
          if (resumed) return { refused: 'The answers were given for one call only.' };
          resumed = true;
          if (
            (call.method ?? 'tools/call') !== (state.m ?? 'tools/call') ||
            call.server !== state.s ||
            call.tool !== state.t ||
            argumentsHash(call.arguments) !== state.h
          ) {
            return {
              refused: `The call of '${call.tool}' is not the one the answers were given for (its server, tool or final arguments changed): call it again.`,
            };
          }
          const responses: InputResponses = {};
          for (const key of state.k) {
            const answer = retry?.inputResponses?.[clientInputKey(key)];
            if (answer !== undefined) responses[key] = answer as InputResponses[string];
          }
          return {
            inputResponses: responses,
            ...(state.u === undefined ? {} : { requestState: state.u }),
            roundsUsed: state.r,
          };
        };
  return {
    onInputRequired,
    resumeInput,
    meta: { 'io.modelcontextprotocol/clientCapabilities': capabilities },
    approved: state?.a === 1 ? { t: state.t, h: state.h } : undefined,
    question: () => asked,
  };
}

/**
 * The answer to a retry of the gateway's sampling consent: the held questions, or why not.
 *
 * @throws nothing
 */
export function answerConsent(
  options: Pick<ModernRelayOptions, 'key' | 'principal' | 'timeoutMs' | 'features' | 'sessionId'>,
  state: RelayState,
  inputResponses: Record<string, unknown> | undefined,
): RelayQuestion | { denied: string } {
  const answer = inputResponses?.[SAMPLING_CONSENT_KEY] as
    | { action?: unknown; content?: { allow?: unknown } }
    | undefined;
  if (answer?.action !== 'accept' || answer.content?.allow !== true) {
    const denied = `The user did not allow server '${state.s}' to sample.`;
    options.features?.recordRelay({
      server: state.s,
      sessionId: options.sessionId,
      method: 'sampling/createMessage',
      status: 'denied',
      detail: denied,
    });
    return { denied };
  }
  const { c, ...rest } = state;
  const requestState = signState<RelayState>(options.key, 'relay', {
    ...rest,
    e: Date.now() + options.timeoutMs,
    n: randomUUID(),
  });
  return { inputRequests: mapped(c ?? {}), requestState };
}

/** Whether a relay state holds questions back for the user's sampling consent. */
export function awaitsConsent(state: RelayState): boolean {
  return state.c !== undefined;
}

function mapped(inputRequests: InputRequests): RelayQuestion['inputRequests'] {
  return Object.fromEntries(
    Object.entries(inputRequests).map(([key, request]) => [
      clientInputKey(key),
      request as RelayQuestion['inputRequests'][string],
    ]),
  );
}

function consentQuestion(server: string): RelayQuestion['inputRequests'][string] {
  return {
    method: 'elicitation/create',
    params: {
      message: `Server '${server}' asks to use your model (sampling) for the call in progress. Allow it?`,
      requestedSchema: {
        type: 'object',
        properties: { allow: { type: 'boolean', title: 'Allow', default: false } },
        required: ['allow'],
      },
    },
  };
}

export type { RelayState };
