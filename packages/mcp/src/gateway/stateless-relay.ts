import { randomUUID } from 'node:crypto';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import { errorResult } from '../tool-result/error-result.js';
import { REQUIRED_CAPABILITIES_META_KEY } from '../upstream/call.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { UpstreamInputDeferred } from '../upstream/input-required.js';
import { type LiveCall, type LiveCalls, type LiveQuestion, MAX_LIVE_CALLS } from './modern-live.js';
import {
  answerConsent,
  awaitsConsent,
  isRelayState,
  type ModernRelayOptions,
  openModernRelay,
  type RelayState,
  redeemRelayState,
} from './modern-relay.js';
import type { StatelessInput } from './session-call.js';
import { argumentsHash, signState } from './signed-state.js';
import type {
  StatelessCallContext,
  StatelessCallOutcome,
  StatelessCallParams,
} from './stateless-types.js';

type RelayOptions = Omit<ModernRelayOptions, 'capabilities'>;

/**
 * The state of a live call's question: bound to the principal, the call as the client
 * made it and the nonce under which the replica that asked holds the call.
 *
 * @throws nothing
 */
function liveState(
  options: Pick<ModernRelayOptions, 'key' | 'principal' | 'timeoutMs'>,
  fields: { t: string; h: string; key: string; nonce: string },
): string {
  return signState<RelayState>(options.key, 'relay', {
    v: 1,
    p: options.principal,
    e: Date.now() + options.timeoutMs,
    n: randomUUID(),
    s: '',
    t: fields.t,
    h: fields.h,
    r: 0,
    k: [fields.key],
    l: fields.nonce,
  });
}

/**
 * What a relay's retry answers before anything runs: the held questions once the user
 * allowed sampling, or a refusal (a batch cannot carry a call's answers).
 *
 * @throws nothing
 */
export function earlyAnswer(
  options: RelayOptions,
  relayed: RelayState | undefined,
  oneCall: boolean,
  callContext: StatelessCallContext,
): StatelessCallOutcome | undefined {
  if (relayed === undefined) return undefined;
  if (!oneCall) {
    return {
      result: errorResult(
        'denied',
        `The answers were given for one call of '${relayed.t}', not for a batch or a program: call it again.`,
      ),
    };
  }
  if (!awaitsConsent(relayed)) return undefined;
  const answer = answerConsent(options, relayed, callContext.inputResponses);
  return 'denied' in answer ? { result: errorResult('denied', answer.denied) } : { input: answer };
}

/**
 * An upstream's `-32021` for capabilities the client did not declare, as the same error
 * for the client; undefined when the client declared one of them (the result stands).
 *
 * @throws nothing
 */
export function missingCapabilities(
  result: CallToolResult,
  declared: Record<string, unknown> | undefined,
): StatelessCallOutcome | undefined {
  const required = result._meta?.[REQUIRED_CAPABILITIES_META_KEY];
  if (typeof required !== 'object' || required === null) return undefined;
  const names = Object.keys(required);
  if (names.length === 0 || names.some((name) => declared?.[name] !== undefined)) return undefined;
  const text = result.content.find((part) => part.type === 'text');
  return {
    missingCapabilities: required as Record<string, unknown>,
    message: text?.type === 'text' ? text.text : `Missing client capabilities: ${names.join(', ')}`,
  };
}

/**
 * Holds a live call that asked, and answers its client with the question and a state
 * naming the call's nonce on this replica.
 *
 * @throws nothing
 */
export function holdLive(input: {
  liveCalls: LiveCalls;
  options: RelayOptions;
  live: LiveCall;
  question: LiveQuestion;
}): StatelessCallOutcome {
  const { liveCalls, options, live, question } = input;
  const nonce = liveCalls.hold(live, options.principal);
  if (nonce === undefined) {
    live.abort('too many calls wait for answers');
    return {
      result: errorResult(
        'upstream_failed',
        `The server asked a question during the call, and ${MAX_LIVE_CALLS} calls of 2026-07-28 clients already wait for answers on this gateway; the call was cancelled. Try again shortly.`,
      ),
    };
  }
  return {
    input: {
      inputRequests: { [question.key]: { method: question.method, params: question.params } },
      requestState: liveState(options, { ...live.target, key: question.key, nonce }),
    },
  };
}

/**
 * A retry of a live call's question: its answer goes to the waiting upstream request,
 * and the call's result (or its next question) answers the retry.
 *
 * @throws what the call throws (the gateway draining)
 */
export async function resumeLive(input: {
  liveCalls: LiveCalls;
  options: RelayOptions;
  /** The held call, taken from this replica. */
  live: LiveCall;
  state: RelayState;
  params: StatelessCallParams;
  callContext: StatelessCallContext;
}): Promise<StatelessCallOutcome> {
  const { liveCalls, options, live, state, params, callContext } = input;
  if (state.t !== params.name || state.h !== argumentsHash(params.arguments ?? {})) {
    live.abort('the retry named another call');
    return {
      result: errorResult(
        'denied',
        `The answer was given for another call than this one of '${params.name}' (its tool or arguments changed); the call that asked was cancelled. Call the tool again.`,
      ),
    };
  }
  live.answer(callContext.inputResponses?.[state.k[0] ?? '']);
  const settled = await live.settle(undefined, callContext.signal);
  if ('question' in settled) {
    return holdLive({ liveCalls, options, live, question: settled.question });
  }
  return missingCapabilities(settled.result, callContext.capabilities) ?? settled;
}

/** What a stateless request beyond tools carries for the relay: the retry's state and answers. */
export type StatelessRequestContext = Pick<
  StatelessCallContext,
  'requestState' | 'inputResponses' | 'capabilities'
>;

/**
 * Refuses a relay state issued for another method (a prompt get's for a tool call).
 *
 * @throws {@link ToolSearchError} `invalid_argument` (`data.field` `requestState`)
 */
export function issuedFor(state: RelayState, method: string): void {
  if ((state.m ?? 'tools/call') !== method || (state.l !== undefined && method !== 'tools/call')) {
    throw new ToolSearchError(
      'invalid_argument',
      `The requestState was issued for another request than this ${method}: send it again with the request it came with.`,
      { data: { field: 'requestState' } },
    );
  }
}

/**
 * Runs one stateless request beyond tools (`prompts/get`, `resources/read`) with the relay
 * of its upstream's `input_required`: generic over the method, given `run`, which sends
 * the request upstream with the relay's handler, resume and `_meta`.
 *
 * @returns the upstream's result, or `{ resultType: 'input_required', inputRequests,
 * requestState }` with the gateway's state around the upstream's
 * @throws {@link ToolSearchError} `invalid_argument` for a forged, altered, expired,
 * replayed or another principal's state, or one of another request; McpError `-32600`
 * when the user did not allow a server to sample; what `run` throws
 */
export async function relayRequest(
  options: RelayOptions,
  method: string,
  context: StatelessRequestContext,
  run: (input: StatelessInput) => Promise<JsonObject>,
): Promise<JsonObject> {
  const raw = context.requestState;
  let relayed: RelayState | undefined;
  if (raw !== undefined) {
    if (!isRelayState(raw)) {
      throw new ToolSearchError(
        'invalid_argument',
        'The requestState is not one this gateway issued.',
        {
          data: { field: 'requestState' },
        },
      );
    }
    relayed = await redeemRelayState(options, raw, (state) => issuedFor(state, method));
  }
  if (relayed !== undefined && awaitsConsent(relayed)) {
    const answer = answerConsent(options, relayed, context.inputResponses);
    if ('denied' in answer) throw new McpError(ErrorCode.InvalidRequest, answer.denied);
    return { resultType: 'input_required', ...answer };
  }
  const relay = openModernRelay(
    { ...options, capabilities: context.capabilities },
    relayed === undefined ? undefined : { state: relayed, inputResponses: context.inputResponses },
  );
  try {
    return await run({
      onInputRequired: relay.onInputRequired,
      ...(relay.resumeInput === undefined ? {} : { resumeInput: relay.resumeInput }),
      meta: relay.meta,
    });
  } catch (error) {
    const asked = relay.question();
    if (error instanceof UpstreamInputDeferred && asked !== undefined) {
      return { resultType: 'input_required', ...asked };
    }
    throw error;
  }
}
