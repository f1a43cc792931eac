import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { GatewayStore, StoredSession } from '@tool-search/mcp';

/** The part of the SDK's Node transport that a restore drives: its Web-standard core. */
interface WebCore {
  handleRequest(request: Request): Promise<Response>;
}

const ACCEPT = 'application/json, text/event-stream';

/**
 * Rebuilds, in a fresh transport on this replica, a session that another replica
 * opened: the SDK keeps a transport's session state (its id, that it was initialized)
 * in memory and offers no public way to set it, so the client's stored `initialize`
 * request and `notifications/initialized` are replayed into the new transport and its
 * server, as if the client had sent them here. The server thereby learns the client's
 * capabilities (elicitation) and protocol version; the answers go nowhere.
 *
 * @param transport - a new transport whose `sessionIdGenerator` returns `record.id`,
 * already connected to the session's server
 * @param record - the stored session
 * @returns once the transport serves the session
 * @throws {@link ToolSearchError} `gateway_failed` when the SDK's transport has no
 * Web-standard core (an SDK this gateway does not know) or refuses the replay
 */
export async function replayInitialize(transport: Transport, record: StoredSession): Promise<void> {
  const core = (transport as unknown as { _webStandardTransport?: WebCore })._webStandardTransport;
  if (typeof core?.handleRequest !== 'function') {
    throw new ToolSearchError(
      'gateway_failed',
      'This version of the MCP SDK cannot restore a session on another replica (its Streamable HTTP transport has no Web-standard core). Pin @modelcontextprotocol/sdk to a version the gateway supports.',
    );
  }
  const post = async (message: JSONRPCMessage, headers: Record<string, string> = {}) => {
    const response = await core.handleRequest(
      new Request('http://replica.invalid/mcp', {
        method: 'POST',
        headers: { accept: ACCEPT, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(message),
      }),
    );
    // Read to the end: an SSE answer closes once the server has answered.
    const text = await response.text();
    if (!response.ok) {
      throw new ToolSearchError(
        'gateway_failed',
        `Cannot restore session ${record.id} on this replica: the transport answered ${response.status} (${text.slice(0, 200)}).`,
      );
    }
  };
  const params = record.initialize as { protocolVersion?: unknown };
  await post({
    jsonrpc: '2.0',
    id: `restore-${record.id}`,
    method: 'initialize',
    params: record.initialize as { protocolVersion: string } & Record<string, unknown>,
  } as JSONRPCMessage);
  await post(
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      'mcp-session-id': record.id,
      ...(typeof params.protocolVersion === 'string'
        ? { 'mcp-protocol-version': params.protocolVersion }
        : {}),
    },
  );
}

/**
 * Splits a POST body into the client's answers to server-side requests (say, an
 * elicitation for an approval), which belong to the replica that asked (maybe
 * another), and the rest, which this replica serves.
 *
 * @param body - the parsed body
 * @returns `answers` (responses, in order) and `rest`: the body without them, or
 * undefined when nothing else is left
 * @throws nothing
 */
export function splitAnswers(body: unknown): { answers: JSONRPCMessage[]; rest: unknown } {
  const isAnswer = (message: unknown): message is JSONRPCMessage =>
    isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
  if (!Array.isArray(body)) {
    return isAnswer(body) ? { answers: [body], rest: undefined } : { answers: [], rest: body };
  }
  const answers = body.filter(isAnswer);
  if (answers.length === 0) return { answers, rest: body };
  const others = body.filter((message) => !isAnswer(message));
  return { answers, rest: others.length === 0 ? undefined : others };
}

/** What {@link trackServerRequests} needs to know of the session and the replica. */
export interface ServerRequestTracking {
  /** The shared store, where the open questions are kept. */
  store: GatewayStore;
  /** The session. */
  sessionId: string;
  /** This replica's id: the answers to its questions come to it alone. */
  replica: string;
  /** Told when a cancelled question could not be closed in the store (it expires with the session). */
  onStoreError?: (message: string) => void;
}

/**
 * Gives every request a transport sends to its client (an approval's elicitation, say)
 * a fresh question id, unique across replicas, in place of the SDK's own counter (which
 * starts at 0 in every replica's copy of a session), and records it in the store as an
 * open question of this session asked by this replica. The SDK's cancellation of a
 * request names the question id too, and closes it. A routed answer is handed to the
 * server under the SDK's own id again.
 *
 * @param transport - the session's transport, connected
 * @param tracking - see {@link ServerRequestTracking}
 * @returns `deliver(message)`: hands an answer to the transport's server when it is
 * the answer to one of its open questions; true when it was
 * @throws nothing; a question the store cannot record fails its request (with
 * `store_unavailable`), so an approval asked through it denies
 */
export function trackServerRequests(
  transport: Transport,
  tracking: ServerRequestTracking,
): (message: JSONRPCMessage) => boolean {
  const { store, sessionId, replica } = tracking;
  // question id → the SDK's own id, and back
  const asked = new Map<string, RequestId>();
  const questionOf = new Map<RequestId, string>();
  const forget = (questionId: string) => {
    const original = asked.get(questionId);
    asked.delete(questionId);
    if (original !== undefined) questionOf.delete(original);
    return original;
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (isJSONRPCRequest(message)) {
      const questionId = `q-${randomUUID()}`;
      // Recorded before it is asked: an answer can never come before its question.
      await store.openQuestion({ sessionId, questionId, replica });
      asked.set(questionId, message.id);
      questionOf.set(message.id, questionId);
      return send({ ...message, id: questionId }, options);
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const questionId = requestId === undefined ? undefined : questionOf.get(requestId);
      if (questionId !== undefined) {
        forget(questionId);
        store.closeQuestion(sessionId, questionId).catch((error: unknown) => {
          tracking.onStoreError?.(
            `question ${questionId} of session ${sessionId} was cancelled but stays open in the store until the session ends: ${describeError(error)}`,
          );
        });
        return send({ ...message, params: { ...message.params, requestId: questionId } }, options);
      }
    }
    return send(message, options);
  };
  return (message) => {
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    if (typeof id !== 'string') return false;
    const original = forget(id);
    if (original === undefined) return false;
    transport.onmessage?.({ ...message, id: original } as JSONRPCMessage);
    return true;
  };
}

/**
 * Hands a client's answers to the replicas whose questions they answer, through the
 * store: each to exactly one replica, once.
 *
 * @param store - the shared store
 * @param sessionId - the session
 * @param body - the answers (one or a batch)
 * @returns why each answer that was not delivered was refused (empty when all were)
 * @throws {@link ToolSearchError} `store_unavailable` when the store is down
 */
export async function routeResponses(
  store: GatewayStore,
  sessionId: string,
  body: JSONRPCMessage | JSONRPCMessage[],
): Promise<string[]> {
  const refused: string[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const id = 'id' in message ? message.id : undefined;
    const routing = await store.routeAnswer({ sessionId, message });
    if (routing === 'unknown') {
      refused.push(
        `no open question of this session has id ${JSON.stringify(id ?? null)} (it was answered already, cancelled or timed out, or never asked); the answer was not delivered.`,
      );
    } else if (routing === 'orphaned') {
      refused.push(
        `the replica that asked question ${JSON.stringify(id)} is no longer running, and the call that waited for it ended with it; the answer was not delivered.`,
      );
    }
  }
  return refused;
}
