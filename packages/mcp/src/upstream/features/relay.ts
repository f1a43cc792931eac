import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { OTEL_ATTRIBUTES as A, activeTracer, runInSpan } from '@tool-search/core/internal';
import type { JsonObject, RelayedMethod } from './feature-client.js';

/** A server's permission to sample the user's model. */
export type SamplingPolicy = 'deny' | 'ask' | 'allow';

/** The default of `sampling`: the client of the call is asked first. */
export const DEFAULT_SAMPLING_POLICY: SamplingPolicy = 'ask';

/** The relay fields of an `mcpServers` entry. */
export interface UpstreamRelayPolicyInput {
  /**
   * Whether the server may sample the user's model (`sampling/createMessage`) during a
   * call: `deny`, `ask` (the client of the call is asked through elicitation; a client
   * without elicitation is refused) or `allow`. A server with held tools never samples.
   * @defaultValue 'ask'
   */
  sampling?: SamplingPolicy;
}

/**
 * The gateway's side of one call in flight: how what the upstream asks during the call
 * reaches the client that made it.
 */
export interface CallRelay {
  /** The gateway session of the call. */
  readonly sessionId: string;
  /** Whether the client of the call declared what this request needs. */
  supports(method: RelayedMethod, params: JsonObject): boolean;
  /** Sends the request to the client of the call (on the call's stream); its answer. */
  request(method: RelayedMethod, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** Sends a log notification to the client of the call, at its level. */
  log(params: JsonObject): void;
  /** Asks the client's user a yes/no question; false when it cannot be asked. */
  confirm(message: string, signal: AbortSignal): Promise<boolean>;
}

/** One relayed (or refused) server request, for the audit trail and the activity feed. */
export interface RelayRecord {
  /** The server that asked. */
  server: string;
  /** The session of the call it was attributed to; `undefined` when none could be. */
  sessionId: string | undefined;
  /** What it asked. */
  method: RelayedMethod;
  /** `ok`: relayed and answered; `denied` by the policy or attribution; `error` from the client. */
  status: 'ok' | 'denied' | 'error';
  /** Why, when it was not `ok`. */
  detail?: string;
}

/**
 * Why a server request cannot be attributed to exactly one call (`undefined` when it can).
 *
 * @throws nothing
 */
export function attributionProblem(method: string, inFlight: number): string | undefined {
  if (inFlight === 1) return undefined;
  return inFlight === 0
    ? `The gateway relays ${method} only while a call is in flight on this connection, and none is.`
    : `The gateway cannot attribute ${method} to one call: ${inFlight} calls are in flight on this shared connection. It relays server requests only during exactly one call; retry when the server's other calls are done.`;
}

/** An error the upstream gets back instead of an answer. */
export function refusal(message: string, code: number = ErrorCode.InvalidRequest): McpError {
  return new McpError(code, message);
}

/**
 * Runs one server request through the policy and the relay of the only call in flight.
 *
 * @throws McpError for a request that is not attributable, not allowed or not supported
 * by the client of the call; the client's own error
 */
export async function relayServerRequest(input: RelayRequest): Promise<JsonObject> {
  const tracer = activeTracer();
  if (tracer === undefined) return relayUnobserved(input);
  // One span a relay, under the call in flight where the request arrived within it; a
  // refusal marks it failed (runInSpan records the error).
  return runInSpan(
    tracer,
    {
      name: `${input.method} relay`,
      kind: 'server',
      attributes: { [A.mcpMethod]: input.method, [A.server]: input.server },
    },
    () => relayUnobserved(input),
  );
}

/** What {@link relayServerRequest} relays, and for whom. */
export interface RelayRequest {
  server: string;
  method: RelayedMethod;
  params: JsonObject;
  signal: AbortSignal;
  inFlight: readonly (CallRelay | undefined)[];
  sampling: SamplingPolicy;
  held: boolean;
  record: (record: RelayRecord) => void;
}

async function relayUnobserved(input: RelayRequest): Promise<JsonObject> {
  const { server, method, params, signal, inFlight } = input;
  const problem = attributionProblem(method, inFlight.length);
  const relay = inFlight[0];
  if (problem !== undefined || relay === undefined) {
    const detail = problem ?? `The call in flight on server '${server}' cannot relay ${method}.`;
    input.record({ server, sessionId: undefined, method, status: 'denied', detail });
    throw refusal(detail);
  }
  const deny = (detail: string): never => {
    input.record({ server, sessionId: relay.sessionId, method, status: 'denied', detail });
    throw refusal(detail);
  };
  if (method === 'sampling/createMessage') {
    if (input.held) deny(`Server '${server}' has tools held for review: it may not sample.`);
    if (input.sampling === 'deny')
      deny(`The gateway's policy denies sampling to server '${server}'.`);
  }
  if (!relay.supports(method, params)) {
    deny(`The client of this call does not support ${method}; the gateway cannot relay it.`);
  }
  if (method === 'sampling/createMessage' && input.sampling === 'ask') {
    if (!relay.supports('elicitation/create', {})) {
      deny(
        `Server '${server}' may sample only with the user's consent, and the client of this call cannot be asked (it does not support elicitation).`,
      );
    }
    const allowed = await relay
      .confirm(
        `Server '${server}' asks to use your model (sampling) for the call in progress. Allow it?`,
        signal,
      )
      .catch(() => false);
    if (!allowed) deny(`The user did not allow server '${server}' to sample.`);
  }
  try {
    const result = await relay.request(method, params, signal);
    input.record({ server, sessionId: relay.sessionId, method, status: 'ok' });
    return result;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    input.record({ server, sessionId: relay.sessionId, method, status: 'error', detail });
    throw error;
  }
}
