import type { JsonObject } from '../upstream/features/feature-client.js';
import { DEFAULT_MAX_INPUT_ROUNDS, requestWithInputRounds } from '../upstream/input-required.js';
import type { FeatureSession } from './feature-session.js';
import type { StatelessInput } from './session-call.js';

/** One request to an upstream beyond tools: where it goes and what it names. */
export interface UpstreamRequest {
  server: string;
  method: string;
  params: JsonObject;
  /** The exposed name (a prompt's) or URI the request names, and its name upstream. */
  target: string;
  upstreamName: string;
  /** The arguments a relay state binds (a prompt's; none for a read). */
  arguments: Record<string, unknown>;
}

/**
 * Sends a request to its upstream; for a stateless (2026) client, through the upstream's
 * `input_required` rounds, whose questions the client's relay passes on (and resumes).
 *
 * @returns the upstream's result
 * @throws the upstream's error; McpError `-32600` when its questions cannot be answered;
 * `UpstreamInputDeferred` when they were passed on to the client
 */
export async function requestUpstream(
  session: FeatureSession,
  request: UpstreamRequest,
  signal: AbortSignal | undefined,
  input?: StatelessInput,
): Promise<JsonObject> {
  const { server, method } = request;
  if (input === undefined) return session.hub.request(server, method, request.params, signal);
  const meta = { ...((request.params['_meta'] as JsonObject | undefined) ?? {}), ...input.meta };
  const params = { ...request.params, _meta: meta };
  const result = await requestWithInputRounds({
    send: (extras) =>
      session.hub.request(server, method, { ...params, ...extras }, signal, {
        allowInputRequired: true,
      }),
    server,
    method,
    target: request.target,
    upstreamName: request.upstreamName,
    arguments: request.arguments,
    handler: input.onInputRequired,
    resume: input.resumeInput,
    maxRounds: DEFAULT_MAX_INPUT_ROUNDS,
    signal: signal ?? new AbortController().signal,
  });
  return result as JsonObject;
}
