import type { RequestId } from '@modelcontextprotocol/client';
import { echoName } from '@tool-search/bridge';
import { describeError } from '@tool-search/core/internal';
import { observeUpstreamCall, upstreamObserved } from '../telemetry/upstream-observe.js';
import { errorResult } from '../tool-result/error-result.js';
import { holdAbandonedSlot } from './abandoned-hold.js';
import {
  resolveCallLimits,
  runUpstreamCall,
  type UpstreamCall,
  unavailableResult,
} from './call.js';
import type { UpstreamClient } from './client.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from './input-required.js';
import { addProgressListener, type PoolState } from './pool-state.js';
import type { UpstreamCallOptions, UpstreamPool } from './pool-types.js';
import type { Upstream } from './upstream-state.js';

type CallTool = UpstreamPool['callTool'];

/** Calls an exposed tool on the server that serves it; failures are error results. */
export async function callPoolTool(
  state: PoolState,
  ...[name, args, callOptions = {}]: Parameters<CallTool>
): ReturnType<CallTool> {
  const entry = state.exposed.get(name)?.entry;
  if (entry === undefined) {
    return errorResult(
      'unknown_tool',
      `Tool '${echoName(name)}' is not served by any connected upstream server. Check the name against tools/list.`,
    );
  }
  return callOnUpstream(state, state.byName.get(entry.server)!, entry.tool, {
    name,
    args,
    callOptions,
  });
}

/**
 * Calls one tool of one server of the pool (the exposed name is for messages only).
 *
 * @param upstream - the server's record in this pool
 * @param tool - the server's own definition of the tool (its upstream name)
 * @throws nothing: failures are error results
 */
export async function callOnUpstream(
  state: PoolState,
  upstream: Upstream,
  tool: { name: string },
  call: { name: string; args: Record<string, unknown>; callOptions: UpstreamCallOptions },
): ReturnType<CallTool> {
  const { name, args, callOptions } = call;
  const entry = { tool };
  const unavailable = () => unavailableFor(state, upstream, name);
  if (upstream.state !== 'ready' || upstream.connection === undefined) return unavailable();
  if (callOptions.signal?.aborted) {
    return errorResult('aborted', `The call of '${name}' was cancelled before it started.`);
  }
  // Arguments the gateway cannot serialise (a hook put a BigInt or a cycle there) are
  // the gateway's failure: the request never leaves, and the server is not blamed.
  try {
    JSON.stringify(args);
  } catch (error) {
    return errorResult(
      'invalid_argument',
      `The gateway could not serialise the arguments of '${name}' (${describeError(error)}); the call was not sent to server '${upstream.name}'. This is a fault in the gateway or one of its hooks, not in the server.`,
    );
  }
  const untrack = state.features.track(upstream.name, callOptions.relay);
  const upstreamCall: UpstreamCall = {
    server: upstream.name,
    meta: callOptions.meta,
    name,
    upstreamName: entry.tool.name,
    args,
    limits: resolveCallLimits({
      call: callOptions,
      server: upstream.config,
      pool: { callTimeoutMs: state.callTimeoutMs, maxCallTimeMs: state.maxCallTimeMs },
    }),
    client: () => (upstream.state === 'ready' ? upstream.connection?.client : undefined),
    unavailable,
    queue: upstream.queue,
    signal: callOptions.signal,
    onProgress: callOptions.onProgress,
    restarting: state.reconnect !== undefined,
    watch: (client) => state.watches.get(client),
    hold: (client, id) => holdAbandoned(state, upstream, client, id).catch(() => {}),
    headerTool: upstream.headerTools.get(entry.tool.name),
    // A 2026 upstream asks by input_required what a 2025 one asks by a server request:
    // without a handler of the caller's, it goes to the call's relay.
    onInputRequired:
      callOptions.onInputRequired ??
      (callOptions.relay === undefined
        ? undefined
        : state.features.inputHandler(upstream.name, callOptions.relay)),
    resume: callOptions.resumeInput,
    maxInputRounds: callOptions.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
  };
  const run = upstreamObserved()
    ? observeUpstreamCall(upstreamCall, () => runUpstreamCall(upstreamCall))
    : runUpstreamCall(upstreamCall);
  return run.finally(untrack);
}

function unavailableFor(state: PoolState, upstream: Upstream, name: string) {
  return unavailableResult({
    server: upstream.name,
    name,
    state: upstream.state,
    attempts: upstream.attempts,
    error: upstream.error,
    // A call of a failed server's tool is what starts its retry.
    retry: upstream.state === 'failed' ? state.retry?.demand(upstream.name) : undefined,
  });
}

/** A call that timed out or was cancelled holds its queue slot until the server stopped it. */
function holdAbandoned(
  state: PoolState,
  upstream: Upstream,
  client: UpstreamClient,
  id: RequestId | undefined,
) {
  return holdAbandonedSlot(
    {
      server: upstream.name,
      watch: state.watches.get(client),
      graceMs: upstream.config.cancelGraceMs ?? state.cancelGraceMs,
      restartCapMs: state.connectTimeoutMs + (state.reconnect?.maxDelayMs ?? 0),
      isLive: () => !state.closed && upstream.connection?.client === client,
      restart: () => {
        client.close().catch(() => {});
      },
      onProgress: (listener) => addProgressListener(state, listener),
    },
    id,
  );
}
