import { DEFAULT_IDLE_TIMEOUT_MS } from '@tool-search/mcp-http';

/** The environment variable read when `--token` is not given. */
export const TOKEN_ENV = 'TOOL_SEARCH_GATEWAY_TOKEN';

/** The port of `serve --transport http` when `--port` is not given. */
export const DEFAULT_HTTP_PORT = 8787;

/** The idle timeout of HTTP sessions when `--idle-timeout` is not given: mcp's default (30 minutes). */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = DEFAULT_IDLE_TIMEOUT_MS / 1000;

/**
 * How long calls in flight may finish after SIGTERM or SIGINT when
 * `--shutdown-grace` is not given: 10 seconds.
 */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 10;

/** The largest `--idle-timeout`: 30 days. */
export const MAX_IDLE_TIMEOUT_SECONDS = 30 * 24 * 60 * 60;
