import type {
  CallToolResult,
  InputRequests,
  InputRequiredResult,
  InputResponses,
  Tool,
} from '@modelcontextprotocol/client';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '@tool-search/core/internal';
import { errorResult } from '../tool-result/error-result.js';

/**
 * How many times one call may be retried with answers to an upstream's `input_required`
 * before it ends with an error result: 8.
 */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

const REQUEST_STATE_ONLY_PACING_MS = 250;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What an {@link UpstreamInputHandler} is told about the call that needs input. */
export interface UpstreamInputContext {
  /** The upstream server's name in the config. */
  server: string;
  /** The tool's exposed name (what the caller called). */
  tool: string;
  /** The tool's name on the upstream. */
  upstreamName: string;
  /** The arguments of the call, as sent upstream. */
  arguments: Record<string, unknown>;
  /** 1 for the first `input_required` of the call, 2 for the next, and so on. */
  round: number;
  /** The request's method when it is not `tools/call` (a prompt get, a resource read). */
  method?: string;
  /**
   * The upstream's opaque `requestState` of this round, as it sent it. The pool echoes it
   * back byte for byte on the retry; a handler may carry it in its own state (e.g. wrapped
   * in the gateway's signed `requestState` for a 2026 client) but must not change it.
   */
  requestState?: string;
  /** Aborts when the call is cancelled or runs out of time. */
  signal: AbortSignal;
}

/**
 * Answers an upstream's `input_required` (2026-07-28): given the embedded requests
 * (elicitation, sampling, roots; keyed by the upstream's ids), returns the responses
 * under the same keys. The pool then retries the call with `inputResponses` and the
 * upstream's `requestState`. A handler may answer some keys only (the upstream asks
 * again), and may throw: the call ends with an `upstream_failed` error result that says
 * why. It should honour `context.signal`.
 *
 * This is the pool's seam for relaying an upstream's questions to whoever can answer
 * them: a 2025 client by elicitation or sampling requests, a 2026 client by an
 * `input_required` of the gateway's own.
 */
export type UpstreamInputHandler = (
  inputRequests: InputRequests,
  context: UpstreamInputContext,
) => Promise<InputResponses>;

/**
 * Thrown by an {@link UpstreamInputHandler} that passes the upstream's questions on to
 * whoever can answer them later (a 2026 client, by an `input_required` of the gateway's
 * own) instead of answering now: the call ends at once with an `upstream_failed` result
 * saying so, and the caller that deferred it answers its client with the question.
 */
export class UpstreamInputDeferred extends Error {
  constructor(message = "The upstream's questions were passed on to the client of the call.") {
    super(message);
    this.name = 'UpstreamInputDeferred';
  }
}

/**
 * Where a call resumes: the answers and the upstream's `requestState` of a round an
 * earlier request deferred (its handler passed the questions on to its own client), checked against the call
 * that is about to run.
 */
export type UpstreamInputResume = (call: {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The request's method when it is not `tools/call`. */
  method?: string;
}) =>
  | { inputResponses?: InputResponses; requestState?: string; roundsUsed: number }
  | { refused: string };

/** The params of one `tools/call` leg. */
export interface ToolCallLeg {
  name: string;
  arguments: Record<string, unknown>;
  inputResponses?: InputResponses;
  requestState?: string;
}

/** What {@link callWithInputRounds} needs. @internal */
export interface InputRounds {
  /** Sends one leg; resolves with the result or the upstream's `input_required`. */
  send: (leg: ToolCallLeg) => Promise<CallToolResult | InputRequiredResult>;
  server: string;
  tool: string;
  upstreamName: string;
  arguments: Record<string, unknown>;
  handler?: UpstreamInputHandler | undefined;
  /** The first leg carries the answers of a deferred round (a client's retry). */
  resume?: UpstreamInputResume | undefined;
  maxRounds: number;
  signal: AbortSignal;
}

/**
 * Whether an upstream's answer is an `input_required` (the SDK hands it back as is when a
 * call allows it).
 *
 * @internal
 */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  );
}

// What the upstream asked, for a message: the kinds and the first elicitation's text.
function describeAsk(requests: InputRequests | undefined): string {
  const entries = Object.entries(requests ?? {});
  if (entries.length === 0) return 'nothing but to be called again (a requestState alone)';
  const kinds = entries.map(([key, request]) => {
    const method = typeof request?.method === 'string' ? request.method : 'an unknown request';
    const message = (request as { params?: { message?: unknown } })?.params?.message;
    return typeof message === 'string'
      ? `${method} "${message.slice(0, 200)}" (${key.slice(0, 60)})`
      : `${method} (${key.slice(0, 60)})`;
  });
  return kinds.slice(0, 5).join(', ') + (kinds.length > 5 ? `, and ${kinds.length - 5} more` : '');
}

/**
 * Runs one tool call through the upstream's `input_required` rounds: each `input_required`
 * goes to the handler and the call is retried with its answers and the upstream's
 * `requestState`, at most `maxRounds` times. Without a handler, or past the limit, or when
 * the handler throws, the call ends with an `upstream_failed` error result that names the
 * server and what it asked; it never waits for an answer nobody can give.
 *
 * @param rounds - see {@link InputRounds}
 * @returns the upstream's final result, or an error result
 * @throws what `send` throws (the caller maps transport failures)
 * @internal
 */
export async function callWithInputRounds(rounds: InputRounds): Promise<CallToolResult> {
  const result = await runInputRounds(
    {
      ...rounds,
      target: rounds.tool,
      send: (extras) =>
        rounds.send({ name: rounds.upstreamName, arguments: rounds.arguments, ...extras }),
    },
    (kind, text) => errorResult(kind === 'refused' ? 'denied' : 'upstream_failed', text),
  );
  return result as CallToolResult;
}

/** What {@link requestWithInputRounds} needs: any request, re-sent with answers and state. @internal */
export interface RequestInputRounds extends Omit<InputRounds, 'send' | 'tool' | 'upstreamName'> {
  /** Sends the request (again) with these answers and the upstream's state. */
  send: (extras: Omit<ToolCallLeg, 'name' | 'arguments'>) => Promise<unknown>;
  /** The method, the target's exposed name and its name upstream (a prompt's, a URI). */
  method: string;
  target: string;
  upstreamName: string;
}

/**
 * Runs any request (a prompt get, a resource read) through the upstream's `input_required`
 * rounds, as {@link callWithInputRounds} runs a tool call.
 *
 * @returns the upstream's final result
 * @throws McpError (`-32600`) when the rounds end without a result (no handler, past the
 * limit, a handler's failure, a refused resume); {@link UpstreamInputDeferred} when the
 * handler passed the questions on; what `send` throws
 * @internal
 */
export async function requestWithInputRounds(rounds: RequestInputRounds): Promise<unknown> {
  return runInputRounds(rounds, (_kind, text) => {
    throw new McpError(ErrorCode.InvalidRequest, text);
  });
}

type Ending = 'refused' | 'failed' | 'deferred';

async function runInputRounds(
  rounds: Omit<InputRounds, 'send' | 'tool'> & {
    target: string;
    method?: string;
    send: (extras: Omit<ToolCallLeg, 'name' | 'arguments'>) => Promise<unknown>;
  },
  fail: (kind: Ending, text: string) => unknown,
): Promise<unknown> {
  const what =
    rounds.method === undefined
      ? `run '${rounds.target}'`
      : `answer ${rounds.method} of '${rounds.target}'`;
  let extras: Omit<ToolCallLeg, 'name' | 'arguments'> = {};
  let first = 1;
  if (rounds.resume !== undefined) {
    const resumed = rounds.resume({
      server: rounds.server,
      tool: rounds.target,
      arguments: rounds.arguments,
      ...(rounds.method === undefined ? {} : { method: rounds.method }),
    });
    if ('refused' in resumed) return fail('refused', resumed.refused);
    first = resumed.roundsUsed + 1;
    extras = {
      ...(resumed.inputResponses === undefined ? {} : { inputResponses: resumed.inputResponses }),
      ...(resumed.requestState === undefined ? {} : { requestState: resumed.requestState }),
    };
  }
  for (let round = first; ; round += 1) {
    const result = await rounds.send(extras);
    if (!isInputRequired(result)) return result;
    const asked = describeAsk(result.inputRequests);
    const hasRequests = Object.keys(result.inputRequests ?? {}).length > 0;
    if (hasRequests && rounds.handler === undefined) {
      return fail(
        'failed',
        `Server '${rounds.server}' needs input to ${what}: it asked for ${asked}. This client cannot answer such requests, so the call was not completed.`,
      );
    }
    if (round > rounds.maxRounds) {
      return fail(
        'failed',
        `Server '${rounds.server}' kept asking for input to ${what} (${rounds.maxRounds} rounds answered; last it asked for ${asked}); the call was stopped.`,
      );
    }
    let responses: InputResponses = {};
    if (!hasRequests) {
      // Only a requestState ("call again"): nothing slows the loop down, so pace it.
      await pause(REQUEST_STATE_ONLY_PACING_MS, rounds.signal);
    } else if (rounds.handler !== undefined && result.inputRequests !== undefined) {
      try {
        responses = await rounds.handler(result.inputRequests, {
          server: rounds.server,
          tool: rounds.target,
          upstreamName: rounds.upstreamName,
          arguments: rounds.arguments,
          round,
          ...(rounds.method === undefined ? {} : { method: rounds.method }),
          ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
          signal: rounds.signal,
        });
      } catch (error) {
        if (rounds.signal.aborted) throw error;
        if (error instanceof UpstreamInputDeferred) {
          if (rounds.method !== undefined) throw error;
          return fail(
            'deferred',
            `Server '${rounds.server}' asked for ${asked} to ${what}; the question was passed on to the client, whose answer resumes the call.`,
          );
        }
        return fail(
          'failed',
          `Server '${rounds.server}' asked for ${asked} to ${what}, and it could not be answered (${describeError(error)}); the call was not completed.`,
        );
      }
    }
    extras = {
      ...(Object.keys(responses).length > 0 ? { inputResponses: responses } : {}),
      ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
    };
  }
}

/** The tool definition a 2026 call mirrors into `Mcp-Param-*` headers, when it has one. */
export type HeaderTool = Pick<Tool, 'name' | 'inputSchema'>;
