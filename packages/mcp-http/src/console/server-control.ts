// What a running gateway gives its operator over its servers: their recent output (a
// bounded, sanitized ring a server), a restart of any one, and a reload of the config.
import type { UpstreamPool, UpstreamPoolOptions } from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { createGatewayReloader, type GatewayReloader, type GatewayReloadReport } from './reload.js';
import { createServerLogs, type ServerLogs } from './server-logs.js';

/** The operator's handle on the servers of a running gateway. */
export interface ServerControl {
  readonly logs: ServerLogs;
  /** Restarts one server (any state); noted in its log. */
  restart(server: string): ReturnType<UpstreamPool['restart']>;
  /** Reloads the config (as {@link StartedGateway.reload} does); `undefined` loader: refused. */
  reload(options?: { dryRun?: boolean }): Promise<GatewayReloadReport>;
}

/** Every value of the config that must never be shown in a log line. */
function secretsOf(config: GatewayConfig, token: string | undefined): string[] {
  const secrets = token === undefined ? [] : [token];
  for (const profile of Object.values(config.profiles ?? {})) {
    if (typeof profile.token === 'string') secrets.push(profile.token);
  }
  for (const entry of Object.values(config.mcpServers)) {
    const { env, headers } = entry as {
      env?: Record<string, string>;
      headers?: Record<string, string>;
    };
    secrets.push(...Object.values(env ?? {}), ...Object.values(headers ?? {}));
  }
  return secrets.filter((value) => typeof value === 'string' && value.length >= 8);
}

/**
 * The logs side first (the pool's options take its listeners), then the rest once the pool is made.
 *
 * @throws nothing
 */
export function createServerControl(
  config: GatewayConfig,
  token: string | undefined,
  load: (() => Promise<GatewayConfig>) | undefined,
): {
  logs: ServerLogs;
  poolOptions: (given: UpstreamPoolOptions) => UpstreamPoolOptions;
  /** `apply`: the gateway's `applyConfig`, so that a reload applies profiles and rules too. */
  attach: (
    pool: UpstreamPool,
    apply?: (config: GatewayConfig) => Promise<{ ended: string[] }>,
  ) => ServerControl;
} {
  let current = config;
  const logs = createServerLogs(() => secretsOf(current, token));
  return {
    logs,
    poolOptions: (given) => ({
      ...given,
      onStderr: (server, text) => {
        logs.stderr(server, text);
        given.onStderr?.(server, text);
      },
    }),
    attach(pool, apply) {
      pool.onProgress((event) => logs.event(event));
      const reloader: GatewayReloader | undefined =
        load === undefined
          ? undefined
          : createGatewayReloader({
              pool,
              current: config,
              load,
              ...(apply === undefined ? {} : { apply }),
              onApplied: (next, report) => {
                current = next;
                if (!report.ok) return;
                for (const name of report.servers.removed) logs.forget(name);
                for (const name of [...report.servers.added, ...report.servers.changed]) {
                  logs.note(name, 'applied by a reload of the config');
                }
              },
            });
      return {
        logs,
        async restart(server) {
          logs.note(server, 'restart asked by an operator');
          return pool.restart(server);
        },
        reload: (options) =>
          reloader === undefined
            ? Promise.resolve({
                ok: false as const,
                error:
                  'nothing changed: this gateway was started without a config file to read again',
              })
            : reloader.reload(options),
      };
    },
  };
}
