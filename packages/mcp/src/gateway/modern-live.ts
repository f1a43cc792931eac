import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import type { JsonObject, RelayedMethod } from '../upstream/features/feature-client.js';
import { type CallRelay, refusal } from '../upstream/features/relay.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from '../upstream/input-required.js';
import { declares, SAMPLING_CONSENT_KEY } from './modern-relay.js';

/** The most calls one gateway holds open, waiting for 2026 clients' answers. */
export const MAX_LIVE_CALLS = 256;

/** One credential holds at most this share (1/n) of {@link MAX_LIVE_CALLS}. */
export const MAX_LIVE_SHARE = 8;

/** A question a live upstream call asked, for the client of the call. */
export interface LiveQuestion {
  key: string;
  method: string;
  params: JsonObject;
}

interface Pending extends LiveQuestion {
  answer: (value: JsonObject) => void;
  fail: (error: Error) => void;
}

/** What a live call's request ends with: its result, or a question for the client. */
export type LiveOutcome = { result: CallToolResult } | { question: LiveQuestion };

/**
 * One call of a 2026 client whose 2025-era upstream asks mid-call: the upstream call stays
 * live on this replica while the client is asked (`input_required`), and its answer goes
 * back to the waiting upstream request.
 */
export interface LiveCall {
  /** Where the pool relays the upstream's requests during the call. */
  readonly relay: CallRelay;
  /** The call's own signal (not the request's: the call outlives the request that asked). */
  readonly signal: AbortSignal;
  /** The tool and arguments hash the call was made with (a retry must name the same). */
  readonly target: { t: string; h: string };
  /**
   * Waits for the call's result or its next question, while the client's request waits
   * (the client going away meanwhile cancels the call).
   */
  settle(run: Promise<CallToolResult> | undefined, clientSignal: AbortSignal): Promise<LiveOutcome>;
  /** Sends the client's answer to the question asked (none: the upstream gets an error). */
  answer(value: unknown): void;
  /** Cancels the call. */
  abort(reason: string): void;
  /** Where the call's log lines go now: the stream of the request that waits on it. */
  logTo(log: CallRelay['log']): void;
}

/** The live calls of one gateway, held by nonce until their client answers or time runs out. */
export interface LiveCalls {
  open(options: {
    principal: string;
    capabilities: Record<string, unknown> | undefined;
    sessionId: string;
    target: { t: string; h: string };
  }): LiveCall;
  /**
   * Holds a call that asked until its client's retry takes it back.
   *
   * @returns the nonce, or undefined when too many calls are held
   */
  hold(call: LiveCall, principal: string): string | undefined;
  /**
   * Takes a held call back for its client's retry.
   *
   * @throws {@link ToolSearchError} `invalid_argument` (`data.field` `requestState`) when
   * this replica holds no such call (another replica asked, or it ended or expired)
   */
  take(nonce: string, principal: string): LiveCall;
  /** Cancels every held call. */
  close(): void;
}

/**
 * The live calls of one gateway (one process: a held call cannot move to another replica).
 *
 * @param options.timeoutMs - how long a held call waits for its client's answer
 * @throws nothing
 */
export function createLiveCalls(options: { timeoutMs: number; max?: number }): LiveCalls {
  const held = new Map<
    string,
    { call: LiveCall; principal: string; timer: ReturnType<typeof setTimeout> }
  >();
  return {
    open: (call) => openLive(call),
    hold(call, principal) {
      const max = options.max ?? MAX_LIVE_CALLS;
      if (held.size >= max) return undefined;
      // One credential may hold an eighth of the places: it cannot starve the others.
      let own = 0;
      for (const entry of held.values()) if (entry.principal === principal) own += 1;
      if (own >= Math.max(1, Math.floor(max / MAX_LIVE_SHARE))) return undefined;
      const nonce = randomUUID();
      const timer = setTimeout(() => {
        held.delete(nonce);
        call.abort('its client did not answer in time');
      }, options.timeoutMs);
      timer.unref?.();
      held.set(nonce, { call, principal, timer });
      return nonce;
    },
    take(nonce, principal) {
      const entry = held.get(nonce);
      if (entry === undefined || entry.principal !== principal) {
        throw new ToolSearchError(
          'invalid_argument',
          'The call this answer belongs to is not held by this gateway: its server asked mid-call (a 2025-era server), so the call waits on the replica that asked, and this retry reached another one (or the call ended or timed out). Send retries of such a call to the same replica, or call the tool again.',
          { data: { field: 'requestState' } },
        );
      }
      held.delete(nonce);
      clearTimeout(entry.timer);
      return entry.call;
    },
    close() {
      for (const [nonce, entry] of held) {
        held.delete(nonce);
        clearTimeout(entry.timer);
        entry.call.abort('the gateway is closing');
      }
    },
  };
}

function keyOf(method: string): string {
  return method === 'sampling/createMessage'
    ? 'sampling'
    : method === 'roots/list'
      ? 'roots'
      : 'elicitation';
}

function openLive(options: Parameters<LiveCalls['open']>[0]): LiveCall {
  const controller = new AbortController();
  const capabilities = options.capabilities ?? {};
  let pending: Pending | undefined;
  let delivered = false;
  let wake: (() => void) | undefined;
  let rounds = 0;
  let running: Promise<CallToolResult> | undefined;
  let logTarget: CallRelay['log'] = () => {};
  const ask = (key: string, method: string, params: JsonObject, signal: AbortSignal) => {
    if (pending !== undefined) {
      throw refusal('The gateway relays one question at a time to a 2026-07-28 client.');
    }
    if (rounds >= DEFAULT_MAX_INPUT_ROUNDS) {
      throw refusal(
        `The gateway relays at most ${DEFAULT_MAX_INPUT_ROUNDS} questions of one call to a 2026-07-28 client.`,
      );
    }
    rounds += 1;
    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = () => {
        pending = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pending = {
        key,
        method,
        params,
        answer: (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        fail: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      delivered = false;
      wake?.();
    });
  };
  const relay: CallRelay = {
    sessionId: options.sessionId,
    supports: (method, params) => declares(capabilities, method, params),
    request: (method: RelayedMethod, params, signal) => ask(keyOf(method), method, params, signal),
    // Log lines go to the request that waits on the call (none between requests).
    log: (params) => logTarget(params),
    async confirm(message, signal) {
      if (!declares(capabilities, 'elicitation/create', {})) return false;
      const answer = await ask(
        SAMPLING_CONSENT_KEY,
        'elicitation/create',
        {
          message,
          requestedSchema: {
            type: 'object',
            properties: { allow: { type: 'boolean', title: 'Allow', default: false } },
            required: ['allow'],
          },
        },
        signal,
      );
      const content = answer['content'] as JsonObject | undefined;
      return answer['action'] === 'accept' && content?.['allow'] === true;
    },
  };
  return {
    relay,
    signal: controller.signal,
    target: options.target,
    async settle(run, clientSignal) {
      running = run ?? running;
      const call = running;
      if (call === undefined) throw new Error('settle: no call runs');
      const onAbort = () => controller.abort(clientSignal.reason);
      if (clientSignal.aborted) onAbort();
      else clientSignal.addEventListener('abort', onAbort, { once: true });
      try {
        const asked = new Promise<'asked'>((resolve) => {
          wake = () => resolve('asked');
          if (pending !== undefined && !delivered) resolve('asked');
        });
        const first = await Promise.race([
          // A call that fails after its question was returned must not go unhandled.
          call.then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          ),
          asked,
        ]);
        if (first !== 'asked') {
          if ('error' in first) throw first.error;
          return first;
        }
        delivered = true;
        const { key, method, params } = pending!;
        return { question: { key, method, params } };
      } finally {
        clientSignal.removeEventListener('abort', onAbort);
        wake = undefined;
      }
    },
    answer(value) {
      const question = pending;
      pending = undefined;
      if (question === undefined) return;
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        question.answer(value as JsonObject);
      } else {
        question.fail(refusal(`The client of the call did not answer ${question.method}.`));
      }
    },
    logTo(log) {
      logTarget = log;
    },
    abort(reason) {
      pending?.fail(refusal(`The call was ended: ${reason}.`));
      pending = undefined;
      controller.abort(new Error(reason));
    },
  };
}
