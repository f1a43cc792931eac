import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  JSONRPCRequestSchema,
  type MessageExtraInfo,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { readBody } from './http-limits.js';

/** How often the sweep looks at the open direct streams. */
const SWEEP_MS = 10;
/** Sweeps a stream waits for its first message before its headers go out alone. */
const HEADER_SWEEPS = 2;
/** The time between keep-alive comments on a stream with nothing else to say (the SDK's). */
const KEEP_ALIVE_MS = 15_000;

/**
 * One client request served directly: its SSE response, written when the first
 * message for it is sent (a call answered quickly goes out as one write: headers, event
 * and end).
 */
class DirectStream {
  /** Sweeps since the stream opened (before its headers) or since its last write. */
  idle = 0;
  constructor(
    readonly res: ServerResponse,
    private readonly headers: Record<string, string>,
    private readonly keepAliveSweeps: number,
  ) {}

  /** Writes one event; the headers first when they have not gone out. */
  write(chunk: string): void {
    if (!this.res.headersSent) this.res.writeHead(200, this.headers);
    this.idle = 0;
    this.res.write(chunk);
  }

  /** Ends the response, with a last event when there is one. */
  end(chunk?: string): void {
    if (!this.res.headersSent) this.res.writeHead(200, this.headers);
    if (chunk === undefined) this.res.end();
    else this.res.end(chunk);
  }

  /** What a sweep does: headers out once the answer is slow, then a comment now and then. */
  sweep(): void {
    this.idle += 1;
    if (!this.res.headersSent) {
      if (this.idle >= HEADER_SWEEPS) {
        this.res.writeHead(200, this.headers);
        this.res.flushHeaders();
        this.idle = 0;
      }
      return;
    }
    if (this.idle >= this.keepAliveSweeps) this.write(': keepalive\n\n');
  }
}

/** The open direct streams of every transport: one timer for all, only while one is open. */
const open = new Set<DirectStream>();
let sweeper: NodeJS.Timeout | undefined;

function sweepAll(): void {
  if (open.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
    return;
  }
  for (const stream of open) stream.sweep();
}

function track(stream: DirectStream): void {
  open.add(stream);
  if (sweeper === undefined) {
    sweeper = setInterval(sweepAll, SWEEP_MS);
    sweeper.unref();
  }
}

/** The JSON-RPC error answers the SDK's transport gives, in its words. */
function replyJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return 'id' in message && !('method' in message);
}

/**
 * A session's Streamable HTTP transport with the hot path served directly on Node's
 * HTTP objects: a POST of one JSON-RPC request (a `tools/call`, say) to an initialized
 * session is read, checked and answered here, its SSE events written straight to the
 * response, where the SDK's transport would convert the request to a Web `Request`,
 * its answer to a Web `Response` over a `ReadableStream`, and flush the headers in a
 * write of their own. Everything else (initialization, batches, notifications and
 * answers, GET and DELETE, any header the fast path does not take as it is) goes to the
 * SDK's transport, which answers it as before; so do the sessions of a shared store,
 * whose events are stored for resumption (they use the SDK's transport alone).
 *
 * The fast path gives the same answers as the SDK's: the same checks of `Accept`,
 * `Content-Type`, `Mcp-Session-Id` and `MCP-Protocol-Version` (a request that fails
 * one is handed to the SDK, which refuses it in its words), the same JSON-RPC schema,
 * the same SSE event format and headers, the same keep-alive comments. It also bounds
 * the body by the listener's `maxBodyBytes`.
 */
export class DirectHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly inner: StreamableHTTPServerTransport;
  private readonly streams = new Map<RequestId, DirectStream>();
  /** The ids of the requests the SDK's path holds in flight (a reused id is refused on both paths). */
  private readonly sdkInFlight = new Set<RequestId>();
  private headers: Record<string, string> | undefined;
  private closed = false;
  private readonly keepAliveSweeps: number;

  /**
   * @param options - the SDK transport's options (without an event store)
   * @param maxBodyBytes - the largest request body taken
   * @param tuning.keepAliveMs - the time between keep-alive comments on a quiet stream
   * (15 s, as the SDK's)
   * @throws nothing
   */
  constructor(
    options: ConstructorParameters<typeof StreamableHTTPServerTransport>[0],
    private readonly maxBodyBytes: number,
    tuning: { keepAliveMs?: number } = {},
  ) {
    this.inner = new StreamableHTTPServerTransport(options);
    this.keepAliveSweeps = Math.max(
      1,
      Math.round((tuning.keepAliveMs ?? KEEP_ALIVE_MS) / SWEEP_MS),
    );
  }

  /** The session's id, once initialized. */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /**
   * Starts the SDK's transport under this one.
   *
   * @throws `Error` when started twice (the SDK's)
   */
  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.fromSdk(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.closed = true;
      this.endStreams();
      this.onclose?.();
    };
    await this.inner.start();
  }

  /**
   * Sends a message on the stream of the request it belongs to.
   *
   * @throws `Error` (the SDK's) when no stream of this session waits for it
   */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isResponse(message);
    const id = answer ? message.id : options?.relatedRequestId;
    const stream = id === undefined ? undefined : this.streams.get(id);
    if (stream === undefined) {
      if (answer) this.sdkInFlight.delete(message.id);
      return this.inner.send(message, options);
    }
    let event: string | undefined;
    try {
      event = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    } catch (error) {
      // As the SDK's transport does: reported, and the stream still ends on an answer.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    if (!answer) {
      if (event !== undefined) stream.write(event);
      return;
    }
    this.forget(id!, stream);
    stream.end(event);
  }

  /**
   * Ends every open stream and the session.
   *
   * @throws nothing of its own
   */
  async close(): Promise<void> {
    this.closed = true;
    this.endStreams();
    await this.inner.close();
  }

  /**
   * Serves one HTTP request of this session: the hot path here, the rest through the
   * SDK's transport.
   *
   * @param req - the request
   * @param res - its response
   * @param parsedBody - the body, when the caller has read it (then the SDK serves it)
   * @throws what the SDK's transport throws
   */
  async handleRequest(
    req: IncomingMessage,
    res: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> {
    if (parsedBody !== undefined || !this.takes(req)) {
      return this.inner.handleRequest(req, res, parsedBody);
    }
    const body = await readBody(req, this.maxBodyBytes);
    if ('tooLarge' in body) {
      const message = `Payload Too Large: Request body must not exceed ${this.maxBodyBytes} bytes`;
      this.onerror?.(new Error(message));
      return replyJsonError(res, 413, -32000, message);
    }
    if ('broken' in body) return;
    let raw: unknown;
    try {
      raw = JSON.parse(body.text);
    } catch {
      this.onerror?.(new Error('Parse error: Invalid JSON'));
      return replyJsonError(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    // The first of the SDK's JSON-RPC schemas: what it takes as a request, this takes.
    const parsed = JSONRPCRequestSchema.safeParse(raw);
    const message = parsed.success ? parsed.data : undefined;
    if (message === undefined || message.method === 'initialize' || this.closed) {
      // Batches, notifications, answers, bad messages: the SDK serves (or refuses) them.
      return this.inner.handleRequest(req, res, raw);
    }
    if (this.streams.has(message.id) || this.sdkInFlight.has(message.id)) {
      const text = `Invalid Request: request id ${JSON.stringify(message.id)} is still in flight in this session`;
      this.onerror?.(new Error(text));
      return replyJsonError(res, 409, -32600, text);
    }
    this.serve(req, res, message);
  }

  /** Whether the hot path may take this request: what the SDK would check, as it is. */
  private takes(req: IncomingMessage): boolean {
    const { headers } = req;
    const accept = headers.accept;
    const version = headers['mcp-protocol-version'];
    return (
      req.method === 'POST' &&
      !this.closed &&
      this.inner.sessionId !== undefined &&
      headers['mcp-session-id'] === this.inner.sessionId &&
      headers['content-type'] === 'application/json' &&
      accept?.includes('application/json') === true &&
      accept.includes('text/event-stream') &&
      (version === undefined ||
        (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
    );
  }

  private serve(req: IncomingMessage, res: ServerResponse, message: JSONRPCRequest): void {
    this.headers ??= {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': this.inner.sessionId!,
    };
    const stream = new DirectStream(res, this.headers, this.keepAliveSweeps);
    const { id } = message;
    this.streams.set(id, stream);
    track(stream);
    // A client that goes away before the answer: the stream is forgotten, and the answer,
    // when it comes, meets the SDK's "no connection" error as it would there.
    res.once('close', () => this.forget(id, stream));
    const requestInfo = {
      headers: req.headers,
      url: new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`),
    };
    this.onmessage?.(message, { requestInfo });
  }

  /**
   * A message the SDK's path read: a request whose id is in flight on either path is
   * refused (its answer would cross with the other's); any other goes on.
   */
  private fromSdk(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message && 'id' in message) {
      const { id } = message;
      if (this.streams.has(id) || this.sdkInFlight.has(id)) {
        const text = `Invalid Request: request id ${JSON.stringify(id)} is still in flight in this session`;
        this.onerror?.(new Error(text));
        // The SDK holds this request's stream under the id: the refusal ends it.
        void this.inner
          .send({ jsonrpc: '2.0', id, error: { code: -32600, message: text } })
          .catch(() => undefined);
        return;
      }
      this.sdkInFlight.add(id);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request is never answered: its id is free again.
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId !== undefined) this.sdkInFlight.delete(requestId);
    }
    this.onmessage?.(message, extra);
  }

  private forget(id: RequestId, stream: DirectStream): void {
    open.delete(stream);
    if (this.streams.get(id) === stream) this.streams.delete(id);
  }

  private endStreams(): void {
    for (const [id, stream] of this.streams) {
      this.forget(id, stream);
      stream.end();
    }
  }
}
