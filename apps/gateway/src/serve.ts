import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ToolSearchError } from '@tool-search/core';
import { DEFAULT_RETRY_FAILED_MS } from '@tool-search/mcp';
import { findUnmatchedRules, type GatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, type StartGatewayOptions, startGateway } from '@tool-search/mcp-http';
import { DEFAULT_SHUTDOWN_GRACE_SECONDS, TOKEN_ENV } from './args.js';
import type { ServeOptions } from './command-flags.js';
import { readConfigFile } from './config-file.js';
import { ConfigFileError } from './errors.js';
import { shouldColor } from './format.js';
import { skippedKeywordLine } from './inspect-arguments.js';
import { createProgressReporter } from './progress.js';
import { formatReloadReport } from './reload-command.js';
import { signInPoolOptions } from './serve-sign-in.js';
import { type ServeTelemetry, startServeTelemetry } from './serve-telemetry.js';

/**
 * The banner's upstream lines: which servers are still connecting (the gateway serves
 * before they are ready), then one line once every server is ready or failed.
 */
function reportUpstreams(
  gateway: StartedGateway,
  stream: { write(text: string): unknown },
  closing: () => boolean,
): void {
  const pending = gateway.pool
    .status()
    .filter((server) => server.state === 'pending' || server.state === 'connecting')
    .map((server) => server.name);
  if (pending.length > 0) {
    stream.write(
      `  still connecting: ${pending.join(', ')} (their tools arrive by tools/list_changed)\n`,
    );
  }
  void gateway.ready().then((statuses) => {
    if (closing()) return;
    const ready = statuses.filter((server) => server.state === 'ready').length;
    const failed = statuses
      .filter((server) => server.state === 'failed')
      .map((server) => server.name);
    stream.write(
      `  upstream servers settled: ${ready} ready` +
        `${failed.length ? `, ${failed.length} failed (${failed.join(', ')}; retried every ${Math.round(DEFAULT_RETRY_FAILED_MS / 60_000)} minutes and when a call of one of their tools comes)` : ''}\n`,
    );
  });
}

/** Whether a bind address listens on every interface. */
function isAllInterfaces(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** One `serve` run: its flags, its config, the gateway once started, and whether it stops. */
interface ServeState {
  readonly options: ServeOptions;
  readonly config: GatewayConfig;
  readonly stderr: NodeJS.WriteStream;
  readonly graceMs: number;
  starting: Promise<StartedGateway> | undefined;
  gateway: StartedGateway | undefined;
  closing: boolean;
  telemetry?: ServeTelemetry;
}

/** Stops once: a signal gives the calls in flight the grace; stdin closing gives none. */
function shutdown(state: ServeState, signal: NodeJS.Signals | undefined): void {
  if (state.closing) return;
  state.closing = true;
  const { stderr } = state;
  // A stop that was asked for and completed is a success (0): service managers such
  // as systemd count 143 as a failure. The client closing stdin leaves no one to
  // answer, so no grace then.
  const grace = signal === undefined ? 0 : state.graceMs;
  if (signal !== undefined) {
    stderr.write(
      `tool-search-gateway: ${signal}: shutting down; calls in flight have ${grace / 1000} s to finish.\n`,
    );
  }
  const exit = (code: number) => {
    // stdout may hold the last answers (stdio): let it drain first.
    process.stdout.write('', () => process.exit(code));
  };
  // Never hang on the way out: the upstreams get a few seconds after the grace.
  setTimeout(() => {
    stderr.write('tool-search-gateway: shutdown took too long; exiting.\n');
    process.exit(1);
  }, grace + 8_000).unref();
  // A signal while starting: close the gateway once it is up.
  const closed = (state.starting ?? Promise.resolve(undefined))
    .then(
      (started) => started?.close({ graceMs: grace }),
      () => undefined,
    )
    .finally(() => state.telemetry?.close());
  void closed.then(
    () => exit(0),
    () => exit(1),
  );
}

/** The built front end of the console (apps/gateway/dist/console), from src or dist alike. */

/** The gateway options every transport shares. */
function commonOptions(state: ServeState): Omit<StartGatewayOptions, 'config'> {
  const { options, stderr } = state;
  return {
    // Progress goes to stderr: on stdio only on a TTY (a client's log is no place for
    // it), on HTTP always (it is the server's log).
    onProgress: createProgressReporter({
      stream: stderr,
      always: options.transport === 'http',
      color: shouldColor(stderr),
    }),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    ...(options.store !== undefined ? { store: options.store } : {}),
    // The log says when the store drops and comes back, and what it could not keep.
    onStoreError: (message) => stderr.write(`tool-search-gateway: store: ${message}\n`),
    // Once per tool, keyword and pointer: what argument checks leave unchecked.
    onSkippedKeyword: (skipped) => stderr.write(skippedKeywordLine(skipped)),
  };
}

async function startServing(
  state: ServeState,
  common: Omit<StartGatewayOptions, 'config'>,
  extra: Omit<StartGatewayOptions, 'config'>,
): Promise<void> {
  const { config, stderr } = state;
  state.starting = startGateway({
    config,
    ...common,
    ...extra,
    // The reload (SIGHUP, the reload command, the console's Reload) reads the same file.
    loadConfig: () => readConfigFile(state.options.config),
  });
  let current: StartedGateway;
  try {
    // The library checks the options (the bind, the token, the profile) before any
    // upstream is spawned; a bad one is a bad config or command line: exit 2.
    current = await state.starting;
  } catch (error) {
    if (ToolSearchError.isInstance(error) && error.code === 'invalid_config') {
      throw new ConfigFileError(error.message, { cause: error });
    }
    throw error;
  }
  state.gateway = current;
  // Once every server is ready or failed, not before: a rule for a server that is
  // still connecting is not yet a mistake.
  void current.pool.start().then(() => {
    if (state.closing) return;
    for (const rule of findUnmatchedRules(config, current.pool.tools())) {
      stderr.write(`warning: ${state.options.config}: ${rule.message}\n`);
    }
  });
}

function httpOptionsOf(options: ServeOptions): StartGatewayOptions['http'] {
  return {
    host: options.host,
    port: options.port,
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.allowOrigins !== undefined ? { allowedOrigins: options.allowOrigins } : {}),
    ...(options.allowHosts !== undefined ? { allowedHosts: options.allowHosts } : {}),
    ...(options.idleTimeout !== undefined ? { idleTimeoutMs: options.idleTimeout * 1000 } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
    ...(options.maxSessionsPerToken !== undefined
      ? { maxSessionsPerPrincipal: options.maxSessionsPerToken }
      : {}),
    ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
    ...(options.eras !== undefined ? { eras: options.eras } : {}),
  };
}

/** What an HTTP gateway tells its log once it listens. */
function reportListening(state: ServeState): void {
  const { options, config, stderr, gateway } = state;
  const profileTokens = Object.values(config.profiles).some((profile) => profile.token);
  if (options.token === undefined && !profileTokens) {
    stderr.write(
      `warning: no bearer token: any process on this machine (any local user, any local program) can connect to ${gateway?.url ?? 'the gateway'} and call your tools. ` +
        `Set one with --token <at least 16 characters> or ${TOKEN_ENV}, or give the profiles in ${options.config} tokens.\n`,
    );
  }
  stderr.write(
    `${listeningBanner(options, gateway?.url === undefined ? undefined : new URL(gateway.url))}\n`,
  );
  if (gateway?.store.shared) {
    stderr.write(
      `  store: ${gateway.store.location} (shared: any replica on it serves any session; /healthz, /readyz)\n`,
    );
  }
  if (gateway?.console !== undefined && gateway.url !== undefined) {
    stderr.write(`  console: ${new URL('/console/', gateway.url).href}\n`);
    const operators = Object.values(config.profiles).some(
      (profile) => profile.operator && profile.token,
    );
    if (options.token === undefined && !operators) {
      stderr.write(
        `warning: nobody can sign in to the console: it takes the gateway token (--token or ${TOKEN_ENV}) or the token of a profile with "operator": true.\n`,
      );
    }
  }
  if (gateway) reportUpstreams(gateway, stderr, () => state.closing);
}

/**
 * `serve`: runs the gateway until its client goes away (stdio: stdin closes) or the
 * process is told to stop (SIGINT, SIGTERM). stdout is the MCP transport on stdio, so
 * every message goes to stderr; progress lines are written only when stderr is a TTY.
 *
 * On SIGTERM or SIGINT it stops accepting (the HTTP port closes, new sessions and
 * calls are refused), gives the calls in flight `shutdownGrace` seconds to finish,
 * answers each one still running with a JSON-RPC error saying the gateway is shutting
 * down, closes the upstreams (their processes exit) and exits 0. It exits 1 if that
 * has not happened 8 s after the grace period.
 *
 * @param options - the parsed flags
 * @returns the exit code, once serving (the process then lives on its transport)
 * @throws {@link ConfigFileError} for a bad config file or unknown profile
 */
export async function runServe(options: ServeOptions): Promise<number> {
  const config = await readConfigFile(options.config, options);
  for (const warning of config.warnings) {
    process.stderr.write(`warning: ${options.config}: ${warning.key}: ${warning.message}\n`);
  }
  const state: ServeState = {
    options,
    config,
    stderr: process.stderr,
    graceMs: (options.shutdownGrace ?? DEFAULT_SHUTDOWN_GRACE_SECONDS) * 1000,
    starting: undefined,
    gateway: undefined,
    closing: false,
  };
  state.telemetry = await startServeTelemetry(config, {
    stderr: process.stderr,
    http: options.transport !== 'stdio',
  });
  process.once('SIGINT', () => shutdown(state, 'SIGINT'));
  process.once('SIGTERM', () => shutdown(state, 'SIGTERM'));
  // The sign-in store lives as long as the process (serve ends with process.exit).
  const {
    signIns,
    signInFlow,
    close: _close,
    ...withSignIn
  } = await signInPoolOptions({
    configPath: options.config,
    config,
    store: options.store,
    profile: options.profile,
  });
  const common = {
    ...commonOptions(state),
    ...state.telemetry.gatewayOptions,
    ...withSignIn,
  };
  // SIGHUP reads the config again; the report goes to the log.
  process.on('SIGHUP', () => {
    const gateway = state.gateway;
    if (gateway === undefined || state.closing) return;
    void gateway
      .reload()
      .then((report) =>
        state.stderr.write(`tool-search-gateway: SIGHUP: ${formatReloadReport(report)}`),
      );
  });
  if (options.transport === 'stdio') {
    // The client closing our stdin is the end of the session.
    process.stdin.once('end', () => shutdown(state, undefined));
    process.stdin.once('close', () => shutdown(state, undefined));
    if (options.console === true || config.console?.enabled === true) {
      process.stderr.write(
        'warning: the console is served over HTTP only (--transport http); this stdio gateway serves none.\n',
      );
    }
    await startServing(state, common, { transport: new StdioServerTransport() });
    return 0;
  }
  const consoleOn = options.console === true || config.console?.enabled === true;
  await startServing(state, common, {
    http: httpOptionsOf(options),
    ...(consoleOn
      ? {
          console: {
            ...(signIns === undefined ? {} : { signIns }),
            ...(signInFlow === undefined ? {} : { signInFlow }),
          },
        }
      : {}),
  });
  reportListening(state);
  return 0;
}

/**
 * The line `serve` prints once listening: the real bind as a URL first, and for a bind
 * to every interface, that it is reachable from other machines and where to connect
 * from this one.
 */
function listeningBanner(options: ServeOptions, url: URL | undefined): string {
  const tokenNote = options.token ? ' (bearer token required)' : '';
  if (url === undefined) return `tool-search-gateway listening on ${options.host}:${options.port}`;
  if (!isAllInterfaces(options.host)) {
    return `tool-search-gateway listening on ${url.href}${tokenNote}`;
  }
  const bound = new URL(url.href);
  bound.hostname = options.host === '0.0.0.0' ? '0.0.0.0' : '[::]';
  const family =
    options.host === '0.0.0.0'
      ? 'IPv4 interfaces'
      : 'interfaces (IPv6, and IPv4 where the system maps it)';
  return (
    `tool-search-gateway listening on ${bound.href}${tokenNote}: all ${family}, reachable from other machines; ` +
    `from this one connect to ${url.href}`
  );
}
