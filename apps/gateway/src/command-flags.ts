import {
  checkAllowedOrigin,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
} from '@tool-search/mcp-http';
import {
  DEFAULT_HTTP_PORT,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  DEFAULT_SHUTDOWN_GRACE_SECONDS,
  MAX_IDLE_TIMEOUT_SECONDS,
  TOKEN_ENV,
} from './flag-defaults.js';
import { FlagError, type FlagTable, type FlagValues } from './flag-table.js';
import { LOGIN_FLAGS } from './login-flags.js';

/**
 * One origin of `--allow-origin`, as a browser sends it: scheme, host and port only.
 * The check is mcp's ({@link checkAllowedOrigin}); this only says which flag it was.
 *
 * @param value - the origin as written
 * @returns the origin
 * @throws {@link FlagError} for anything else, with the origin it probably meant
 */
function origin(value: string): string {
  try {
    checkAllowedOrigin(value);
  } catch (error) {
    throw new FlagError(
      `--allow-origin must be an origin as browsers send it, got '${value}': ${(error as Error).message}`,
    );
  }
  return value;
}

/** The flags of `serve`, in the order of its help. */
export const SERVE_FLAGS = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description: 'the gateway config (mcpServers + toolSearch, toolsets, ...)',
  },
  {
    name: 'transport',
    key: 'transport',
    kind: 'choice',
    choices: ['stdio', 'http'],
    default: 'stdio',
    description: 'stdio (default) or Streamable HTTP',
  },
  {
    name: 'port',
    key: 'port',
    kind: 'integer',
    placeholder: 'N',
    min: 0,
    max: 65_535,
    default: DEFAULT_HTTP_PORT,
    transport: 'http',
    description: 'HTTP port (default: {default}; 0 picks a free one)',
  },
  {
    name: 'host',
    key: 'host',
    kind: 'text',
    placeholder: 'H',
    default: '127.0.0.1',
    transport: 'http',
    description: 'HTTP bind address (default: {default}; any other address requires a token)',
  },
  {
    name: 'token',
    key: 'token',
    kind: 'text',
    placeholder: 'T',
    env: TOKEN_ENV,
    transport: 'http',
    description: 'bearer token for HTTP (default: {default})',
  },
  {
    name: 'allow-origin',
    key: 'allowOrigins',
    kind: 'list',
    repeatable: true,
    item: origin,
    placeholder: 'O',
    transport: 'http',
    description:
      "a browser origin allowed besides the gateway's own, e.g. http://localhost:6274 (the MCP Inspector); repeatable. Its pages get CORS answers; any other Origin is refused (403)",
  },
  {
    name: 'allow-host',
    key: 'allowHosts',
    kind: 'list',
    repeatable: true,
    placeholder: 'H',
    transport: 'http',
    description:
      "a Host header accepted besides the gateway's own address, e.g. gateway.internal:8080 (the load balancer's, when replicas run behind one); repeatable. On a loopback bind any other Host is refused (403, DNS-rebinding protection)",
  },
  {
    name: 'idle-timeout',
    key: 'idleTimeout',
    kind: 'integer',
    placeholder: 'S',
    min: 0,
    max: MAX_IDLE_TIMEOUT_SECONDS,
    documentedDefault: DEFAULT_IDLE_TIMEOUT_SECONDS,
    transport: 'http',
    description:
      'close an HTTP session after S seconds without requests (an open SSE stream keeps it; default: {default}; 0: never)',
  },
  {
    name: 'max-sessions',
    key: 'maxSessions',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 100_000,
    documentedDefault: DEFAULT_MAX_SESSIONS,
    transport: 'http',
    description: 'the most HTTP sessions open at once (default: {default})',
  },
  {
    name: 'max-sessions-per-token',
    key: 'maxSessionsPerToken',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 100_000,
    transport: 'http',
    description:
      "the most HTTP sessions one token holds (default: an equal share of --max-sessions per token); at its cap a token's oldest idle session is closed to make room",
  },
  {
    name: 'max-connections',
    key: 'maxConnections',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 1_000_000,
    documentedDefault: DEFAULT_MAX_CONNECTIONS,
    transport: 'http',
    description: 'the most open HTTP connections (default: {default})',
  },
  {
    name: 'eras',
    key: 'eras',
    kind: 'choice',
    choices: ['both', 'modern', 'legacy'],
    transport: 'http',
    description:
      'which eras of MCP /mcp speaks: both (default: 2025-11-25 sessions and stateless 2026-07-28), modern (2026-07-28 only) or legacy (2025 sessions only)',
  },
  {
    name: 'shutdown-grace',
    key: 'shutdownGrace',
    kind: 'integer',
    placeholder: 'S',
    min: 0,
    max: 3_600,
    documentedDefault: DEFAULT_SHUTDOWN_GRACE_SECONDS,
    description:
      'on SIGTERM or SIGINT, seconds that calls in flight may still finish before they are answered with a shutdown error (default: {default}; 0: answer them at once)',
  },
  {
    name: 'profile',
    key: 'profile',
    kind: 'text',
    placeholder: 'P',
    description: 'the config profile (toolsets) for stdio sessions',
  },
  {
    name: 'context-window',
    key: 'contextWindow',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 100_000_000,
    description:
      "the client model's context window in tokens (decides when tool search activates; default: unknown → 20,000 tokens)",
  },
  {
    name: 'store',
    key: 'store',
    kind: 'text',
    placeholder: 'S',
    description:
      "where sessions, approvals, stream events and the audit trail live: 'memory' (the default, this process only) or redis://host:port[/db] (Valkey too), shared by every replica behind a load balancer (default: the config's store, else memory)",
  },
  {
    name: 'console',
    key: 'console',
    kind: 'boolean',
    transport: 'http',
    description:
      'serve the operator console under /console (sign in with the gateway token or an operator profile\'s token; also on with "console": { "enabled": true } in the config)',
  },
] as const satisfies FlagTable;

/** The flags of `audit`. */
export const AUDIT_FLAGS = [
  {
    name: 'store',
    key: 'store',
    kind: 'text',
    required: true,
    placeholder: 'redis://host:port[/db]',
    description: "the gateways' store, as given to serve --store",
  },
  {
    name: 'count',
    key: 'count',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 100_000,
    default: 20,
    description: 'print the last N records first (default: {default})',
  },
  {
    name: 'follow',
    key: 'follow',
    kind: 'boolean',
    default: false,
    description: 'then wait for new records and print each as it is written, until interrupted',
  },
] as const satisfies FlagTable;

/** The flags of `search`; its query is the words besides them. */
export const SEARCH_FLAGS = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description: 'the gateway config',
  },
  {
    name: 'limit',
    key: 'limit',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 50,
    description: "how many matches (default: the config's toolSearch.searchDefaultLimit)",
  },
  {
    name: 'profile',
    key: 'profile',
    kind: 'text',
    placeholder: 'P',
    description: 'search only the toolsets of this profile',
  },
] as const satisfies FlagTable;

/** The flags of `inspect`. */
export const INSPECT_FLAGS = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description: 'the gateway config',
  },
  {
    name: 'profile',
    key: 'profile',
    kind: 'text',
    placeholder: 'P',
    description: 'inspect only the toolsets of this profile',
  },
  {
    name: 'accept',
    key: 'accept',
    kind: 'boolean',
    description:
      'write the current tool fingerprints into the review file: tools held for review are served (a running gateway reads the file anew)',
  },
  {
    name: 'store',
    key: 'store',
    kind: 'text',
    placeholder: 'S',
    description:
      "the replicas' Redis store (redis://host:port[/db]; default: the config's store): its learned terms are listed, and with --accept the fingerprints are shared through it, where every replica reads them",
  },
] as const satisfies FlagTable;

/** The flags of `learning export|import|clear`. */
export const LEARNING_FLAGS = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description: 'the gateway config (its learning bounds, and its store)',
  },
  {
    name: 'store',
    key: 'store',
    kind: 'text',
    placeholder: 'S',
    description:
      "the replicas' Redis store, redis://host:port[/db] (default: the config's store); a memory store's terms live in its gateway's process only",
  },
  {
    name: 'profile',
    key: 'profile',
    kind: 'text',
    placeholder: 'P',
    description: 'export or clear only this profile (default: every profile)',
  },
  {
    name: 'file',
    key: 'file',
    kind: 'text',
    placeholder: 'F',
    description: 'export into / import from this JSON file (default: stdout / stdin)',
  },
] as const satisfies FlagTable;

/** The flags of `recorded-server`. */
export const RECORDED_SERVER_FLAGS = [
  {
    name: 'servers',
    key: 'servers',
    kind: 'list',
    placeholder: 'a,b',
    default: [],
    description: 'serve only these recorded servers (default: all)',
  },
  {
    name: 'exclude',
    key: 'exclude',
    kind: 'list',
    placeholder: 'a,b',
    default: [],
    description: 'leave these recorded servers out',
  },
  {
    name: 'names',
    key: 'naming',
    kind: 'choice',
    choices: ['prefixed', 'raw'],
    default: 'prefixed',
    description:
      '<server>__<name> (default) or the published names (refused when two selected tools share a name)',
  },
  {
    name: 'list',
    key: 'list',
    kind: 'boolean',
    default: false,
    description: 'print the recorded servers and their tool counts, then exit',
  },
] as const satisfies FlagTable;

/** The flags of `reload`. */
export const RELOAD_FLAGS = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description:
      'the config file the gateway serves: checked here first, then read again by the gateway',
  },
  {
    name: 'url',
    key: 'url',
    kind: 'text',
    placeholder: 'U',
    default: `http://127.0.0.1:${DEFAULT_HTTP_PORT}/`,
    description:
      'the running gateway (serve --transport http with its console on; default: {default})',
  },
  {
    name: 'token',
    key: 'token',
    kind: 'text',
    placeholder: 'T',
    env: TOKEN_ENV,
    description:
      "an operator's token: the gateway token or an operator profile's (default: {default})",
  },
  {
    name: 'dry-run',
    key: 'dryRun',
    kind: 'boolean',
    default: false,
    description: 'only show what would change',
  },
] as const satisfies FlagTable;

/** Every subcommand's flags: the one source of its parser, its synopsis and its help. */
export const COMMAND_FLAGS = {
  demo: [],
  serve: SERVE_FLAGS,
  search: SEARCH_FLAGS,
  inspect: INSPECT_FLAGS,
  'recorded-server': RECORDED_SERVER_FLAGS,
  audit: AUDIT_FLAGS,
  learning: LEARNING_FLAGS,
  reload: RELOAD_FLAGS,
  login: LOGIN_FLAGS,
  logout: LOGIN_FLAGS,
} as const satisfies Record<string, FlagTable>;

/** The subcommands. */
export type CommandName = keyof typeof COMMAND_FLAGS;

/** The options of `serve`: its flags, parsed. */
export type ServeOptions = FlagValues<typeof SERVE_FLAGS>;

/** The options of `search` besides its query: its flags, parsed. */
export type SearchOptions = FlagValues<typeof SEARCH_FLAGS>;

/** The options of `inspect`: its flags, parsed. */
export type InspectOptions = FlagValues<typeof INSPECT_FLAGS>;

/** The options of `learning` besides its action: its flags, parsed. */
export type LearningOptions = FlagValues<typeof LEARNING_FLAGS>;

/** The options of `reload`: its flags, parsed. */
export type ReloadOptions = FlagValues<typeof RELOAD_FLAGS>;

/** The options of `audit`: its flags, parsed. */
export type AuditOptions = FlagValues<typeof AUDIT_FLAGS>;

/** The options of `recorded-server`: its flags, parsed. */
export type RecordedServerOptions = FlagValues<typeof RECORDED_SERVER_FLAGS>;

/**
 * Why the HTTP-only flags of `serve` were refused on stdio. It names every flag of
 * {@link SERVE_FLAGS} that applies only to HTTP (a test holds the two together).
 */
export const HTTP_ONLY_MESSAGE =
  '--port, --host, --token, --allow-host, --allow-origin and --idle-timeout apply only to --transport http, as do --max-sessions, --max-sessions-per-token, --max-connections, --eras and --console.';
