import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { ToolSearchError } from '@tool-search/core';

/** The default of `GatewayHttpOptions.maxSessions`. */
export const DEFAULT_MAX_SESSIONS = 100;
/** The default of `GatewayHttpOptions.maxConnections`. */
export const DEFAULT_MAX_CONNECTIONS = 1024;
/** The default of `GatewayHttpOptions.headersTimeoutMs`: 10 seconds. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** The default of `GatewayHttpOptions.bodyTimeoutMs`: 30 seconds. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** The default of `GatewayHttpOptions.keepAliveTimeoutMs`: 5 seconds. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** The limits of an HTTP listener, every default filled in and checked. */
export interface HttpLimits {
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  maxConnections: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** A duration for people: `250 ms`, `45 s`, `30 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)} ms`;
  if (ms < 120_000) return `${Math.ceil(ms / 1000)} s`;
  return `${Math.ceil(ms / 60_000)} min`;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) {
    throw new ToolSearchError(
      'invalid_config',
      `${name} must be a whole number of 1 or more, got ${value}.`,
    );
  }
  return resolved;
}

/**
 * Fills in and checks the limits of an HTTP listener.
 *
 * @param options - the limits given (any may be absent)
 * @param principals - how many principals (tokens) may open sessions, at least 1
 * @returns the limits; `maxSessionsPerPrincipal` defaults to an equal share of
 * `maxSessions` per principal, so that no token can take another's share
 * @throws {@link ToolSearchError} `invalid_config` for a limit that is not a whole
 * number of 1 or more
 */
export function resolveHttpLimits(options: Partial<HttpLimits>, principals: number): HttpLimits {
  const maxSessions = positive('maxSessions', options.maxSessions, DEFAULT_MAX_SESSIONS);
  return {
    maxSessions,
    maxSessionsPerPrincipal: Math.min(
      maxSessions,
      positive(
        'maxSessionsPerPrincipal',
        options.maxSessionsPerPrincipal,
        Math.max(1, Math.floor(maxSessions / Math.max(1, principals))),
      ),
    ),
    maxConnections: positive('maxConnections', options.maxConnections, DEFAULT_MAX_CONNECTIONS),
    headersTimeoutMs: positive(
      'headersTimeoutMs',
      options.headersTimeoutMs,
      DEFAULT_HEADERS_TIMEOUT_MS,
    ),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS),
    keepAliveTimeoutMs: positive(
      'keepAliveTimeoutMs',
      options.keepAliveTimeoutMs,
      DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    ),
  };
}

/**
 * The `node:http` server options for the limits: node itself answers 408 and closes a
 * socket whose headers take longer than `headersTimeoutMs`, or whose whole request
 * takes longer than headers and body together.
 *
 * @param limits - the resolved limits
 * @returns options for `createServer`
 * @throws nothing
 */
export function serverOptionsOf(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the two timeouts only this often (30 s by default): check often
    // enough that a short timeout means what it says.
    connectionsCheckingInterval: Math.min(
      30_000,
      Math.max(50, Math.floor(Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs) / 4)),
    ),
  };
}

/**
 * Cuts off a request whose body has not fully arrived `timeoutMs` after its handler
 * started: answers 408 (when nothing was sent yet) and closes the socket. This covers
 * bodies read by the gateway and those the SDK transport reads itself.
 *
 * @param req - the request
 * @param res - its response
 * @param timeoutMs - the deadline
 * @returns nothing; the timer is cleared when the body ends or the request closes
 * @throws nothing
 */
export function armBodyDeadline(req: IncomingMessage, res: ServerResponse, timeoutMs: number) {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    const destroy = () => req.socket.destroy();
    if (res.headersSent) return destroy();
    const message = `Request timeout: the request body did not arrive within ${formatDuration(timeoutMs)}; the connection is closed.`;
    res.writeHead(408, { 'content-type': 'application/json', connection: 'close' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
      destroy,
    );
  }, timeoutMs);
  timer.unref();
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  req.once('close', clear);
}

/** What reading a request's body gave: its text, or why there is none. */
export type Body = { text: string } | { tooLarge: true } | { broken: true };

/**
 * Reads a request's body of at most `maxBytes` as text: by its `Content-Length` first,
 * then as it arrives (the rest of a body over the limit is read and dropped, so the
 * connection can still carry the answer).
 *
 * @param req - the request
 * @param maxBytes - the largest body
 * @returns the text, `tooLarge`, or `broken` when the client went away mid-body
 * @throws nothing
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  return new Promise((resolve) => {
    if (Number(req.headers['content-length']) > maxBytes) return resolve({ tooLarge: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        finish({ tooLarge: true });
        // The rest is read and dropped, so the connection can still carry the answer.
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () =>
      finish({
        text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString(),
      }),
    );
    req.once('close', () => {
      if (!req.complete) finish({ broken: true });
    });
    req.once('error', () => finish({ broken: true }));
  });
}

/**
 * Reads a JSON request body of at most `maxBytes`.
 *
 * @param req - the request
 * @param maxBytes - the largest body
 * @returns the parsed body
 * @throws {@link ToolSearchError} `invalid_argument` for a body that is too large or
 * unfinished (the socket closed); `SyntaxError` for a body that is not JSON
 */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const body = await readBody(req, maxBytes);
  if ('tooLarge' in body) {
    throw new ToolSearchError(
      'invalid_argument',
      `the request body is larger than ${maxBytes} bytes`,
    );
  }
  if ('broken' in body)
    throw new ToolSearchError('invalid_argument', 'the request body ended early');
  return JSON.parse(body.text);
}
