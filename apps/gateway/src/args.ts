import { parseArgs } from 'node:util';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
} from '@tool-search/mcp';
import type { ServeOptions } from './serve.js';

/** The exit code of a bad command line or a bad config file. */
export const EXIT_USAGE = 2;

/** A command line the CLI cannot run: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print, if known. */
    readonly command?: CommandName,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The subcommands. */
export type CommandName = 'demo' | 'serve' | 'search' | 'inspect' | 'recorded-server';

/** The environment variable read when `--token` is not given. */
export const TOKEN_ENV = 'TOOL_SEARCH_GATEWAY_TOKEN';

/** The port of `serve --transport http` when `--port` is not given. */
export const DEFAULT_HTTP_PORT = 8787;

/** The idle timeout of HTTP sessions when `--idle-timeout` is not given: 30 minutes. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = DEFAULT_IDLE_TIMEOUT_MS / 1000;

/**
 * How long calls in flight may finish after SIGTERM or SIGINT when
 * `--shutdown-grace` is not given: 10 seconds.
 */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 10;

/** The largest `--idle-timeout`: 30 days. */
const MAX_IDLE_TIMEOUT_SECONDS = 30 * 24 * 60 * 60;

export const USAGE: Record<CommandName | 'main', string> = {
  main: `tool-search-gateway: an MCP gateway that puts tool search in front of any MCP client

Usage:
  tool-search-gateway demo
  tool-search-gateway serve --config <file> [--transport stdio|http] [--port N] [--host H]
                            [--token T] [--allow-origin O]... [--idle-timeout S]
                            [--max-sessions N] [--max-sessions-per-token N]
                            [--max-connections N] [--shutdown-grace S]
                            [--profile P] [--context-window N]
  tool-search-gateway search "<query>" --config <file> [--limit N] [--profile P]
  tool-search-gateway inspect --config <file> [--profile P] [--accept]
  tool-search-gateway recorded-server [--servers a,b] [--exclude a,b] [--names prefixed|raw]
  tool-search-gateway --help | <command> --help

Commands:
  demo             a scripted session against real MCP servers, no configuration needed
  serve            run the gateway for an MCP client (stdio or Streamable HTTP)
  search           ranked tool search over the tools of a config's servers
  inspect          per server: tools and estimated tokens; activation at 32k/128k/200k/1M;
                   refused, cut, held and flagged definitions; new and changed tools
  recorded-server  a stdio MCP server of 397 recorded real tool definitions (no backend)

Exit codes: 0 done, 1 failed, 2 bad command line or bad config file.`,
  demo: `Usage: tool-search-gateway demo

Spawns real MCP servers (everything, filesystem on a temporary folder, memory) and the
recorded-catalog server, starts the gateway on Streamable HTTP (127.0.0.1, a free port,
a bearer token), connects to it with the MCP SDK client and walks a scripted session.
Needs no configuration and no network; removes its temporary folder when done.`,
  serve: `Usage: tool-search-gateway serve --config <file> [options]

Options:
  --config <file>         the gateway config (mcpServers + toolSearch, toolsets, ...)
  --transport stdio|http  stdio (default) or Streamable HTTP
  --port N                HTTP port (default: ${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --host H                HTTP bind address (default: 127.0.0.1; any other address
                          requires a token)
  --token T               bearer token for HTTP (default: $${TOKEN_ENV})
  --allow-origin O        a browser origin allowed besides the gateway's own, e.g.
                          http://localhost:6274 (the MCP Inspector); repeatable. Its
                          pages get CORS answers; any other Origin is refused (403)
  --idle-timeout S        close an HTTP session after S seconds without requests (an
                          open SSE stream keeps it; default: ${DEFAULT_IDLE_TIMEOUT_SECONDS}; 0: never)
  --max-sessions N        the most HTTP sessions open at once (default: ${DEFAULT_MAX_SESSIONS})
  --max-sessions-per-token N
                          the most HTTP sessions one token holds (default: an equal
                          share of --max-sessions per token); at its cap a token's
                          oldest idle session is closed to make room
  --max-connections N     the most open HTTP connections (default: ${DEFAULT_MAX_CONNECTIONS})
  --shutdown-grace S      on SIGTERM or SIGINT, seconds that calls in flight may still
                          finish before they are answered with a shutdown error
                          (default: ${DEFAULT_SHUTDOWN_GRACE_SECONDS}; 0: answer them at once)
  --profile P             the config profile (toolsets) for stdio sessions
  --context-window N      the client model's context window in tokens (decides when
                          tool search activates; default: unknown → 20,000 tokens)`,
  search: `Usage: tool-search-gateway search "<query>" --config <file> [--limit N] [--profile P]

Connects to the config's servers and prints the ranked matches of the query.

Options:
  --config <file>  the gateway config
  --limit N        how many matches (default: the config's toolSearch.searchDefaultLimit)
  --profile P      search only the toolsets of this profile`,
  inspect: `Usage: tool-search-gateway inspect --config <file> [--profile P] [--accept]

Connects to the config's servers and prints, per server, its tools and their estimated
tokens, and whether tool search activates at context windows of 32k, 128k, 200k and 1M.
Then the definitions refused or cut by the limits, self-pins ignored, tools held for
review and descriptions flagged as tool poisoning, and the new, changed and removed
tools against the review file (review.file, default tool-review.json beside the config).

Options:
  --config <file>  the gateway config
  --profile P      inspect only the toolsets of this profile
  --accept         write the current tool fingerprints into the review file: tools
                   held for review are served (a running gateway reads the file anew)`,
  'recorded-server': `Usage: tool-search-gateway recorded-server [--servers a,b] [--exclude a,b] [--names prefixed|raw]

A stdio MCP server that lists recorded tool definitions of 23 published MCP servers
(data/mcp-real) and answers every call with an error: the tool has no backend.

Options:
  --servers a,b            serve only these recorded servers (default: all)
  --exclude a,b            leave these recorded servers out
  --names prefixed|raw     <server>__<name> (default) or the published names
                           (refused when two selected tools share a name)
  --list                   print the recorded servers and their tool counts, then exit`,
};

/** A parsed command line. */
export type Command =
  | { command: 'help'; topic: CommandName | 'main' }
  | { command: 'demo' }
  | ({ command: 'serve' } & ServeOptions)
  | { command: 'search'; config: string; query: string; limit?: number; profile?: string }
  | { command: 'inspect'; config: string; profile?: string; accept?: boolean }
  | {
      command: 'recorded-server';
      servers: string[];
      exclude: string[];
      naming: 'prefixed' | 'raw';
      list: boolean;
    };

type OptionSpec = Record<
  string,
  { type: 'string' | 'boolean'; short?: string; multiple?: boolean }
>;

const COMMAND_OPTIONS: Record<CommandName, OptionSpec> = {
  demo: {},
  serve: {
    config: { type: 'string' },
    transport: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    'idle-timeout': { type: 'string' },
    'max-sessions': { type: 'string' },
    'max-sessions-per-token': { type: 'string' },
    'max-connections': { type: 'string' },
    'shutdown-grace': { type: 'string' },
    profile: { type: 'string' },
    'context-window': { type: 'string' },
  },
  search: {
    config: { type: 'string' },
    limit: { type: 'string' },
    profile: { type: 'string' },
  },
  inspect: { config: { type: 'string' }, profile: { type: 'string' }, accept: { type: 'boolean' } },
  'recorded-server': {
    servers: { type: 'string' },
    exclude: { type: 'string' },
    names: { type: 'string' },
    list: { type: 'boolean' },
  },
};

function isCommandName(value: string): value is CommandName {
  return Object.hasOwn(COMMAND_OPTIONS, value);
}

function integer(
  command: CommandName,
  flag: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new UsageError(`--${flag} must be a whole number, got '${value}'.`, command);
  }
  const parsed = Number(value);
  if (parsed < min || parsed > max) {
    throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${value}.`, command);
  }
  return parsed;
}

function transportOf(command: CommandName, value: string | undefined): 'stdio' | 'http' {
  if (value === undefined || value === 'stdio') return 'stdio';
  if (value === 'http') return 'http';
  throw new UsageError(`--transport must be 'stdio' or 'http', got '${value}'.`, command);
}

function requireConfig(command: CommandName, value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new UsageError(`${command} needs --config <file>.`, command);
  }
  return value;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function nonEmpty(
  command: CommandName,
  flag: string,
  value: string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`--${flag} must not be empty.`, command);
  return value;
}

/**
 * The origins of `--allow-origin` (repeatable, or comma-separated), each as a browser
 * sends it: scheme, host and port only.
 */
function origins(command: CommandName, values: readonly string[]): string[] {
  return values.flatMap(list).map((value) => {
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    if (origin === value) return value;
    const hint =
      origin !== undefined && origin !== 'null'
        ? `did you mean '${origin}'?`
        : 'e.g. http://localhost:6274';
    throw new UsageError(
      `--allow-origin must be an origin as browsers send it (scheme, host and port only; ${hint}), got '${value}'.`,
      command,
    );
  });
}

/**
 * Parses the command line of `tool-search-gateway`.
 *
 * @param argv - the arguments after the script, e.g. `process.argv.slice(2)`
 * @param env - the environment (for the token variable) @defaultValue process.env
 * @returns the command to run
 * @throws {@link UsageError} for an unknown command or flag, a missing or bad value
 */
export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    return { command: 'help', topic: topic && isCommandName(topic) ? topic : 'main' };
  }
  if (!isCommandName(first)) {
    throw new UsageError(
      first.startsWith('-') ? `Unknown option '${first}'.` : `Unknown command '${first}'.`,
    );
  }
  const command = first;
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', topic: command };
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: COMMAND_OPTIONS[command],
      strict: true,
      allowPositionals: command === 'search',
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split('\n')[0] ?? message, command);
  }
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  switch (command) {
    case 'demo':
      return { command };
    case 'serve': {
      const transport = transportOf(command, text('transport'));
      const token = nonEmpty(command, 'token', text('token')) ?? (env[TOKEN_ENV] || undefined);
      const parsed: Command = {
        command,
        config: requireConfig(command, text('config')),
        transport,
        port: integer(command, 'port', text('port'), 0, 65_535) ?? DEFAULT_HTTP_PORT,
        host: nonEmpty(command, 'host', text('host')) ?? '127.0.0.1',
      };
      if (token !== undefined) parsed.token = token;
      const allowed = values['allow-origin'];
      const allowOrigins = origins(
        command,
        Array.isArray(allowed) ? allowed.filter((value) => typeof value === 'string') : [],
      );
      if (allowOrigins.length > 0) parsed.allowOrigins = allowOrigins;
      const idleTimeout = integer(
        command,
        'idle-timeout',
        text('idle-timeout'),
        0,
        MAX_IDLE_TIMEOUT_SECONDS,
      );
      if (idleTimeout !== undefined) parsed.idleTimeout = idleTimeout;
      const maxSessions = integer(command, 'max-sessions', text('max-sessions'), 1, 100_000);
      if (maxSessions !== undefined) parsed.maxSessions = maxSessions;
      const perToken = integer(
        command,
        'max-sessions-per-token',
        text('max-sessions-per-token'),
        1,
        100_000,
      );
      if (perToken !== undefined) parsed.maxSessionsPerToken = perToken;
      const maxConnections = integer(
        command,
        'max-connections',
        text('max-connections'),
        1,
        1_000_000,
      );
      if (maxConnections !== undefined) parsed.maxConnections = maxConnections;
      const grace = integer(command, 'shutdown-grace', text('shutdown-grace'), 0, 3_600);
      if (grace !== undefined) parsed.shutdownGrace = grace;
      const profile = nonEmpty(command, 'profile', text('profile'));
      if (profile !== undefined) parsed.profile = profile;
      const contextWindow = integer(
        command,
        'context-window',
        text('context-window'),
        1,
        100_000_000,
      );
      if (contextWindow !== undefined) parsed.contextWindow = contextWindow;
      if (
        transport === 'stdio' &&
        (text('port') ||
          text('host') ||
          text('token') ||
          allowed !== undefined ||
          text('idle-timeout') ||
          text('max-sessions') ||
          text('max-sessions-per-token') ||
          text('max-connections'))
      ) {
        throw new UsageError(
          '--port, --host, --token, --allow-origin and --idle-timeout apply only to --transport http, as do --max-sessions, --max-sessions-per-token and --max-connections.',
          command,
        );
      }
      return parsed;
    }
    case 'search': {
      const query = positionals.join(' ').trim();
      if (query === '') throw new UsageError('search needs a query, e.g. "read a file".', command);
      const parsed: Command = { command, config: requireConfig(command, text('config')), query };
      const limit = integer(command, 'limit', text('limit'), 1, 50);
      if (limit !== undefined) parsed.limit = limit;
      const profile = nonEmpty(command, 'profile', text('profile'));
      if (profile !== undefined) parsed.profile = profile;
      return parsed;
    }
    case 'inspect': {
      const parsed: Command = { command, config: requireConfig(command, text('config')) };
      const profile = nonEmpty(command, 'profile', text('profile'));
      if (profile !== undefined) parsed.profile = profile;
      if (values['accept'] === true) parsed.accept = true;
      return parsed;
    }
    case 'recorded-server': {
      const names = text('names') ?? 'prefixed';
      if (names !== 'prefixed' && names !== 'raw') {
        throw new UsageError(`--names must be 'prefixed' or 'raw', got '${names}'.`, command);
      }
      return {
        command,
        servers: list(text('servers')),
        exclude: list(text('exclude')),
        naming: names,
        list: values.list === true,
      };
    }
  }
}
