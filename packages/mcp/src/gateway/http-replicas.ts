import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import type { GatewayStore, StoredSession } from '../store/types.js';

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
export async function replayInitialize(
  transport: StreamableHTTPServerTransport,
  record: StoredSession,
): Promise<void> {
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
 * Whether a POST body holds only a client's answers to server-side requests (say, an
 * elicitation for an approval): those belong to the replica that asked, which may
 * be another one.
 *
 * @param body - the parsed body
 * @returns true for one response or a batch of only responses
 * @throws nothing
 */
export function isResponsesOnly(body: unknown): body is JSONRPCMessage | JSONRPCMessage[] {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every((message) => isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
  );
}

/**
 * Remembers the ids of the requests a transport sends to its client (elicitations),
 * so that a routed answer is delivered only to the replica that asked.
 *
 * @param transport - the session's transport, connected
 * @returns `deliver(message)`: hands an answer to the transport's server when it asked
 * for it; true when it did
 * @throws nothing
 */
export function trackServerRequests(
  transport: StreamableHTTPServerTransport,
): (message: JSONRPCMessage) => boolean {
  const asked = new Set<RequestId>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message) asked.add(message.id);
    return send(message, options);
  };
  return (message) => {
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    if (id === undefined || !asked.has(id)) return false;
    asked.delete(id);
    transport.onmessage?.(message);
    return true;
  };
}

/**
 * Sends a client's answers to every replica through the store; the one that asked
 * delivers them.
 *
 * @param store - the shared store
 * @param sessionId - the session
 * @param body - the answers (one or a batch)
 * @returns once published
 * @throws {@link ToolSearchError} `store_unavailable` when the store is down
 */
export async function routeResponses(
  store: GatewayStore,
  sessionId: string,
  body: JSONRPCMessage | JSONRPCMessage[],
): Promise<void> {
  for (const message of Array.isArray(body) ? body : [body]) {
    await store.publish({ sessionId, message });
  }
}
