import type { InputResponse, InputResponses } from '@modelcontextprotocol/client';
import type { UpstreamInputHandler } from '../input-required.js';
import type { JsonObject, RelayedMethod } from './feature-client.js';
import {
  type CallRelay,
  type RelayRecord,
  refusal,
  relayServerRequest,
  type SamplingPolicy,
} from './relay.js';

const RELAYED: ReadonlySet<string> = new Set<RelayedMethod>([
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
]);

/**
 * The answer to a 2026-07-28 upstream's `input_required` for one call: each embedded
 * request (sampling, elicitation, roots) goes through the same policy and relay as a 2025
 * server request during that call. Attribution is no question here (the upstream names
 * the call by answering it), so the relay is the call's own.
 *
 * @param input.policy - the server's sampling policy and review state, read per request
 * @returns the handler for `UpstreamCallOptions.onInputRequired`
 * @throws nothing (the handler throws the refusal or the client's error, which ends the
 * call with an error result that says why)
 */
export function relayInputRequests(input: {
  server: string;
  relay: CallRelay;
  policy: () => { sampling: SamplingPolicy; held: boolean };
  record: (record: RelayRecord) => void;
}): UpstreamInputHandler {
  return async (inputRequests, context) => {
    const responses: InputResponses = {};
    for (const [key, request] of Object.entries(inputRequests)) {
      const method = request?.method;
      if (typeof method !== 'string' || !RELAYED.has(method)) {
        throw refusal(`The gateway does not relay ${String(method).slice(0, 60)}.`);
      }
      const result = await relayServerRequest({
        server: input.server,
        method: method as RelayedMethod,
        params: ((request as { params?: unknown }).params ?? {}) as JsonObject,
        signal: context.signal,
        inFlight: [input.relay],
        ...input.policy(),
        record: input.record,
      });
      responses[key] = result as InputResponse;
    }
    return responses;
  };
}
