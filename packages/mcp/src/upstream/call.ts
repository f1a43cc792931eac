import { type RequestId, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '@tool-search/core/internal';
import { z } from 'zod/v4';
import { upstreamTraceMeta } from '../telemetry/upstream-observe.js';
import { errorResult } from '../tool-result/error-result.js';
import type { CallQueue } from './call-queue.js';
import type { UpstreamClient } from './client.js';
import type { RetryDemand } from './failed-retry.js';
import {
  callWithInputRounds,
  type HeaderTool,
  type ToolCallLeg,
  type UpstreamInputHandler,
  type UpstreamInputResume,
} from './input-required.js';
import type { RequestWatch } from './request-watch.js';

/** The pool's default call timeout: no answer and no progress for this long ends a call. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** The pool's default longest call, progress or not. */
export const DEFAULT_MAX_CALL_TIME_MS = 600_000;
/**
 * How long a server with `maxConcurrency` has, after a call of it timed out or was
 * cancelled (and it was sent `notifications/cancelled`), to answer that call late before
 * the pool counts its connection as poisoned and restarts it: 5000 ms. Until one or the
 * other, the call keeps its slot, so no later call runs beside it.
 */
export const DEFAULT_CANCEL_GRACE_MS = 5_000;

/** The time limits of one call, once every source of them has been weighed. */
export interface CallLimits {
  /** No answer and no progress for this long ends the call (and, queued, the wait). */
  timeoutMs: number;
  /** The longest the call may take in all, queue time included. */
  maxTimeMs: number;
}

/**
 * Weighs the sources of a call's limits. The timeout: the call's own `timeoutMs`,
 * then the server's `callTimeoutMs`, then the caller's `defaultTimeoutMs` (the gateway
 * server's option), then the pool's. The maximum: the server's `maxCallTimeMs`, then
 * the pool's; never below the timeout.
 *
 * @internal
 */
export function resolveCallLimits(sources: {
  call: { timeoutMs?: number | undefined; defaultTimeoutMs?: number | undefined };
  server: { callTimeoutMs?: number | undefined; maxCallTimeMs?: number | undefined };
  pool: { callTimeoutMs: number; maxCallTimeMs: number };
}): CallLimits {
  const timeoutMs =
    sources.call.timeoutMs ??
    sources.server.callTimeoutMs ??
    sources.call.defaultTimeoutMs ??
    sources.pool.callTimeoutMs;
  const maxTimeMs = Math.max(timeoutMs, sources.server.maxCallTimeMs ?? sources.pool.maxCallTimeMs);
  return { timeoutMs, maxTimeMs };
}

/**
 * The answer to a call of a server that is not ready: why, and what happens next. For a
 * `failed` server, `retry` says what the call's demand for a reconnect did.
 *
 * @internal
 */
export function unavailableResult(upstream: {
  server: string;
  name: string;
  state: string;
  attempts: number;
  error?: string | undefined;
  retry?: RetryDemand | undefined;
}): CallToolResult {
  const { server, name, error } = upstream;
  if (upstream.retry !== undefined) {
    const what =
      upstream.retry === 'started'
        ? 'a reconnect attempt was started now'
        : upstream.retry === 'in_progress'
          ? 'a reconnect attempt is under way'
          : 'a reconnect attempt failed moments ago; more follow on a schedule';
    return errorResult(
      'upstream_unavailable',
      `Server '${server}' is down (${error ?? 'it failed'}); ${what}. '${name}' was not called: try again in a few seconds.`,
    );
  }
  const why =
    upstream.state === 'reconnecting'
      ? `it is reconnecting (attempt ${upstream.attempts}) after: ${error ?? 'a failure'}`
      : `it is ${upstream.state}${error ? `: ${error}` : ''}`;
  return errorResult(
    'upstream_unavailable',
    `Server '${server}' is unavailable (${why}); '${name}' was not called. Try again shortly.`,
  );
}

/** One call to run on an upstream's connection. @internal */
export interface UpstreamCall {
  server: string;
  /** The exposed name (for messages). */
  name: string;
  /** The tool's name on the server. */
  upstreamName: string;
  args: Record<string, unknown>;
  /** The client's `_meta`, sent on (the SDK adds the progress token). */
  meta?: Record<string, unknown> | undefined;
  limits: CallLimits;
  /** The live client, read after the queue (the server may have gone meanwhile). */
  client: () => UpstreamClient | undefined;
  /** The answer when no client is there after the wait. */
  unavailable: () => CallToolResult;
  queue?: CallQueue | undefined;
  signal?: AbortSignal | undefined;
  onProgress?:
    | ((progress: { progress: number; total?: number; message?: string }) => void)
    | undefined;
  /** Whether a crashed server is being restarted (for the message). */
  restarting: boolean;
  /** The watch of the client's connection, to learn the id the call goes out with. */
  watch?: ((client: UpstreamClient) => RequestWatch | undefined) | undefined;
  /**
   * Settles when a call that was sent and then abandoned (timed out or cancelled) has
   * really stopped upstream: answered late, or its connection closed (restarted after a
   * grace). The call's queue slot is held until then. Never rejects.
   */
  hold?: ((client: UpstreamClient, id: RequestId | undefined) => Promise<void>) | undefined;
  /** The upstream's definition when it declares `x-mcp-header` arguments (2026 headers). */
  headerTool?: HeaderTool | undefined;
  /** Answers the upstream's `input_required`; absent: such a call ends with an error result. */
  onInputRequired?: UpstreamInputHandler | undefined;
  /** The answers of a round an earlier request deferred: the first leg carries them. */
  resume?: UpstreamInputResume | undefined;
  /** The most `input_required` rounds answered for one call. */
  maxInputRounds: number;
}

/**
 * The `_meta` key of an error result whose upstream refused the call for a client
 * capability the request did not declare (2026-07-28 `-32021`): the capabilities it
 * named (`requiredCapabilities`), so that a 2026 client is answered with the same error.
 */
export const REQUIRED_CAPABILITIES_META_KEY = 'tool-search/required-client-capabilities';

// The upstream's -32021 (MissingRequiredClientCapability) with the capabilities it named.
function missingCapabilities(error: unknown): Record<string, unknown> | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, data } = error as { code?: unknown; data?: unknown };
  if (code !== -32021 || typeof data !== 'object' || data === null) return undefined;
  const required = (data as { requiredCapabilities?: unknown }).requiredCapabilities;
  if (typeof required !== 'object' || required === null || Array.isArray(required))
    return undefined;
  // Only the names, bounded: the upstream's text is not carried further.
  return Object.fromEntries(
    Object.keys(required)
      .slice(0, 8)
      .map((name) => [name.slice(0, 40), {}]),
  );
}

const isSdkError = (error: unknown, code: SdkErrorCode) =>
  error instanceof SdkError && error.code === code;

const TOTAL_TIME_UP = Symbol('max call time');

/**
 * Runs one `tools/call` on an upstream with the pool's rules: it waits its turn in the
 * server's queue (bounded by the timeout and the maximum), progress resets the timeout,
 * the maximum bounds the whole call, and every failure becomes an error result. A call
 * that times out or is cancelled answers at once, but keeps its queue slot until
 * `hold` says the upstream has stopped running it.
 *
 * @internal
 */
export async function runUpstreamCall(call: UpstreamCall): Promise<CallToolResult> {
  const { server, name, limits } = call;
  // The maximum counts from the moment the call arrived, so time queued is included.
  // One controller that the caller's signal and the maximum both abort (not
  // AbortSignal.any of two: every AbortSignal is costly to make on Node 20).
  const total = new AbortController();
  const { signal } = total;
  let timeUp = false;
  const totalTimer = setTimeout(() => {
    timeUp = true;
    total.abort(TOTAL_TIME_UP);
  }, limits.maxTimeMs);
  const forward = () => total.abort(call.signal?.reason);
  if (call.signal?.aborted) forward();
  else call.signal?.addEventListener('abort', forward, { once: true });
  const cancelled = () =>
    errorResult(
      'aborted',
      `The call of '${name}' was cancelled${call.queue ? ' (it was queued or running)' : ''}.`,
    );
  const overTime = () =>
    errorResult(
      'upstream_timeout',
      `Server '${server}' did not finish the call of '${name}' within its maximum of ${limits.maxTimeMs} ms (progress extends the timeout up to that maximum); the call was cancelled. Try again, or with less work per call.`,
    );
  let release: (() => void) | undefined;
  let holding: Promise<void> | undefined;
  try {
    if (call.queue) {
      const ticket = await call.queue.acquire({ signal, timeoutMs: limits.timeoutMs });
      if (!ticket.ok) {
        if (ticket.reason === 'timeout') {
          return errorResult(
            'upstream_timeout',
            `The call of '${name}' waited ${ticket.waitedMs} ms in the queue of server '${server}' (maxConcurrency ${call.queue.limit}, ${ticket.ahead} call${ticket.ahead === 1 ? '' : 's'} ahead) without being sent; the call timeout is ${limits.timeoutMs} ms. The server is busy: try again shortly.`,
          );
        }
        return timeUp && !call.signal?.aborted ? overTime() : cancelled();
      }
      release = ticket.release;
    }
    const client = call.client();
    if (client === undefined) return call.unavailable();
    const watch = call.watch?.(client);
    // The leg in flight: its request id is what a hold waits on.
    let sent: { readonly id: RequestId | undefined } = { id: undefined };
    const sendLeg = (leg: ToolCallLeg) => {
      // A copy per leg: its identity is how the watch finds the request on the wire.
      // The client's `_meta` is sent on; the trace context rides in it too, as the MCP
      // specification reserves it (the SDK adds the progress token).
      const trace = upstreamTraceMeta();
      const meta =
        call.meta === undefined && trace === undefined ? undefined : { ...call.meta, ...trace };
      const params = {
        ...leg,
        arguments: { ...leg.arguments },
        ...(meta === undefined ? {} : { _meta: meta }),
      };
      const send = () =>
        client.callTool(params, {
          timeout: limits.timeoutMs,
          resetTimeoutOnProgress: true,
          signal,
          // Always ask for progress: it is what lets a long call outlive the timeout.
          onprogress: (progress) => call.onProgress?.(progress),
          allowInputRequired: true,
          ...(call.headerTool === undefined ? {} : { toolDefinition: call.headerTool }),
        });
      const capture = watch?.capture(
        send,
        (message) =>
          'method' in message &&
          message.method === 'tools/call' &&
          (message.params as { arguments?: unknown } | undefined)?.arguments === params.arguments,
      ) ?? { value: send(), id: undefined };
      sent = capture;
      return capture.value.then((result) => {
        if (capture.id !== undefined) watch?.forget(capture.id);
        return result;
      });
    };
    try {
      return (await callWithInputRounds({
        send: sendLeg,
        server,
        tool: name,
        upstreamName: call.upstreamName,
        arguments: call.args,
        handler: call.onInputRequired,
        resume: call.resume,
        maxRounds: call.maxInputRounds,
        signal,
      })) as CallToolResult;
    } catch (error) {
      const abandoned = signal.aborted || isSdkError(error, SdkErrorCode.RequestTimeout);
      // The SDK has told the upstream to cancel, but it may run on: with a queue, the
      // slot stays taken until the upstream has really stopped.
      if (abandoned && release !== undefined && call.hold !== undefined) {
        holding = call.hold(client, sent.id);
      } else if (sent.id !== undefined) {
        watch?.forget(sent.id);
      }
      if (call.signal?.aborted) return cancelled();
      if (timeUp) return overTime();
      if (isSdkError(error, SdkErrorCode.RequestTimeout)) {
        return errorResult(
          'upstream_timeout',
          `Server '${server}' did not answer the call of '${name}' within ${limits.timeoutMs} ms (no result and no progress for that long); the call was cancelled. Try again, or with simpler arguments.`,
        );
      }
      if (isSdkError(error, SdkErrorCode.ConnectionClosed)) {
        return errorResult(
          'upstream_failed',
          `Server '${server}' closed the connection during the call of '${name}' (it may have crashed)${call.restarting ? '; it is being restarted, try again shortly' : ''}.`,
        );
      }
      if (
        isSdkError(error, SdkErrorCode.InvalidResult) ||
        error instanceof z.ZodError ||
        (error instanceof Error && error.name === 'ZodError')
      ) {
        return errorResult(
          'upstream_failed',
          `Server '${server}' answered the call of '${name}' with a malformed result.`,
        );
      }
      const required = missingCapabilities(error);
      const failed = errorResult(
        'upstream_failed',
        `Server '${server}' failed the call of '${name}': ${describeError(error)}`,
      );
      if (required === undefined) return failed;
      return { ...failed, _meta: { ...failed._meta, [REQUIRED_CAPABILITIES_META_KEY]: required } };
    }
  } finally {
    clearTimeout(totalTimer);
    call.signal?.removeEventListener('abort', forward);
    if (holding !== undefined && release !== undefined) void holding.finally(release);
    else release?.();
  }
}
