import type { HttpMount } from './http-mount.js';
/** Options of `GatewayServer.listenHttp`. */
export interface GatewayHttpOptions {
  /** The address to bind. @defaultValue '127.0.0.1' */
  host?: string;
  /** The port; 0 picks a free one. @defaultValue 0 */
  port?: number;
  /** The endpoint's path. @defaultValue '/mcp' */
  path?: string;
  /**
   * A bearer token for sessions without a profile (or with the server's default
   * profile). Required when `host` is not a loopback address, unless the config's
   * profiles carry tokens. When any token is configured, every request must carry one.
   */
  token?: string;
  /**
   * Browser origins allowed besides the gateway's own (e.g. `http://localhost:6274`,
   * the MCP Inspector). Each is a serialized origin: scheme, host and port only, as a
   * browser sends it (no path, no trailing slash, never `*`). A request with any other
   * `Origin` header is refused with 403. An allowed origin gets CORS answers: its
   * preflights (`OPTIONS`) are answered with 204 before authentication, and every
   * response to it, error replies included, carries `Access-Control-Allow-Origin` with
   * that origin and exposes `Mcp-Session-Id` and `Mcp-Protocol-Version`.
   * @defaultValue [] (only the gateway's own origins)
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` header values allowed (e.g. `gateway.internal:8080`). When bound to a
   * loopback address the loopback names are always allowed and any other Host is
   * refused (DNS-rebinding protection); elsewhere, absent means any Host.
   */
  allowedHosts?: readonly string[];
  /** The largest request body in bytes. @defaultValue 4 MiB */
  maxBodyBytes?: number;
  /**
   * The most sessions open at once, all tokens together. At the cap, a new session
   * closes the oldest idle session of its own token, else of the token holding the
   * most sessions (if it holds more than the newcomer); when none is idle it is
   * refused with 503. @defaultValue 100
   */
  maxSessions?: number;
  /**
   * The most sessions one principal holds at once: one token (the `token` option, or a
   * profile's token), or every client when no token is configured. A principal at its
   * cap that opens another session closes its own oldest idle session (no request in
   * flight, no open SSE stream; its id then gets 404), so clients that reconnect
   * without `DELETE` never lock anyone out; when all its sessions are busy, the new
   * one is refused with 503. Other principals are not affected.
   * @defaultValue an equal share of `maxSessions` per configured token
   * (`floor(maxSessions / tokens)`, at least 1; all of it without tokens)
   */
  maxSessionsPerPrincipal?: number;
  /**
   * The most open connections (sockets); a socket beyond it is closed at once, before
   * it can send anything. Idle keep-alive sockets close after `keepAliveTimeoutMs`.
   * @defaultValue 1024
   */
  maxConnections?: number;
  /**
   * How long a client may take to send a request's headers, in milliseconds; then
   * the socket is answered 408 and closed (a client that never finishes its headers
   * cannot hold a socket). Checked every quarter of it (at most every 30 s).
   * @defaultValue 10_000
   */
  headersTimeoutMs?: number;
  /**
   * How long a client may take to send a request's body once its headers arrived, in
   * milliseconds; then it is answered 408 and the socket closed (slow or unfinished
   * bodies, also those the SDK transport reads). @defaultValue 30_000
   */
  bodyTimeoutMs?: number;
  /**
   * How long an idle keep-alive socket stays open between requests, in milliseconds.
   * @defaultValue 5_000
   */
  keepAliveTimeoutMs?: number;
  /**
   * How long a session may go without a request before it is closed, in milliseconds
   * (a client that went away without `DELETE` would otherwise hold its place forever).
   * A session with a request in flight or an open SSE stream (`GET`) is never idle.
   * A request to a closed session gets 404, upon which clients initialize a new one.
   * Checked every `min(idleTimeoutMs / 2, 60 s)`, so a session closes up to that much
   * later. `0` never closes idle sessions.
   * @defaultValue 1_800_000 (30 minutes)
   */
  idleTimeoutMs?: number;
  /**
   * Parts of the site served beside the MCP endpoint, each under its own path prefix
   * (the operator console under `/console`). @defaultValue none
   */
  mounts?: readonly HttpMount[];
  /**
   * Which eras of MCP the endpoint serves: `'both'` (2025-11-25 sessions and the stateless
   * 2026-07-28 revision on the same path, routed by each request), `'modern'` (2026-07-28
   * only: a 2025 `initialize` is answered with the supported revision, -32022) or
   * `'legacy'` (2025 only, as before the modern leg). @defaultValue 'both'
   */
  eras?: 'both' | 'modern' | 'legacy';
  /**
   * How long a 2026-07-28 client may keep `tools/list` and `server/discover` before it
   * asks again (`ttlMs`); changes also reach it on `subscriptions/listen`.
   * @defaultValue 60_000
   */
  modernTtlMs?: number;
}

/** The default of {@link GatewayHttpOptions.idleTimeoutMs}: 30 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** Options of {@link GatewayHttpListener.close}. */
export interface GatewayHttpCloseOptions {
  /**
   * How long requests in flight may still finish, in milliseconds, before their
   * connections are closed. New connections and new sessions are refused at once.
   * `GatewayServer.close` answers every call still running after its grace with a
   * JSON-RPC error, so that no client is left without an answer.
   * @defaultValue 0
   */
  graceMs?: number;
}

/** A running Streamable HTTP endpoint. */
export interface GatewayHttpListener {
  /**
   * The endpoint to connect to from this machine, e.g. `http://127.0.0.1:43123/mcp`.
   * For a bind to every interface (`0.0.0.0`, `::`) it names the loopback address
   * (`127.0.0.1`, `[::1]`), which is connectable; `host` is the real bind.
   */
  url: string;
  /** The bound host, as given (e.g. `0.0.0.0`). */
  host: string;
  /** The bound port. */
  port: number;
  /** Whether it listens on every interface (`0.0.0.0` or `::`), not one address. */
  allInterfaces: boolean;
  /**
   * Stops accepting: the port closes, idle connections close, a new session is
   * refused with 503. Requests in flight go on.
   *
   * @returns nothing
   * @throws nothing
   */
  stopAccepting(): void;
  /**
   * Stops accepting, lets requests in flight finish for up to `graceMs`, then closes
   * every session it opened and every connection.
   *
   * @param options.graceMs - how long requests in flight may still finish
   * @returns once closed
   * @throws nothing
   */
  close(options?: GatewayHttpCloseOptions): Promise<void>;
}
