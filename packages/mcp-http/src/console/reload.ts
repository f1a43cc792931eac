import { isDeepStrictEqual } from 'node:util';
import { describeError } from '@tool-search/core/internal';
import type { PoolReloadReport, UpstreamPool } from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';

/** The sections of a config other than the servers, each compared as a whole. */
const RULE_SECTIONS = [
  'guardrails',
  'approval',
  'pins',
  'review',
  'programs',
  'toolSearch',
  'toolsets',
  'learning',
  'limits',
  'console',
  'store',
] as const;

/** The sections a reload applies to the open sessions (with the profiles), given an `apply`. */
const LIVE_SECTIONS: ReadonlySet<string> = new Set([
  'guardrails',
  'approval',
  'toolsets',
  'toolSearch',
]);

/** What a reload found and did. */
export type GatewayReloadReport =
  | {
      ok: true;
      /** Whether it was only shown (`dryRun`), not applied. */
      dryRun: boolean;
      /** The servers added, removed and changed: applied at once, sessions go on. */
      servers: PoolReloadReport;
      /** The profiles added, removed and changed. */
      profiles: PoolReloadReport;
      /** The other sections that changed (`guardrails`, `approval`, …). */
      sections: string[];
      /**
       * What changed and applies to the open sessions from their next request (with
       * `dryRun`: what would): `profiles` (scope, tokens, removal), `guardrails`,
       * `approval`, `toolsets`, `toolSearch`, and `pins` (the pool's).
       */
      applied: string[];
      /**
       * What changed but applies only when the gateway starts again (`review`,
       * `programs`, `learning`, `limits`, `console`, `store`).
       */
      notApplied: string[];
      /** The sessions ended because their profile was removed, by id. */
      endedSessions: string[];
    }
  | {
      ok: false;
      /** Why nothing changed: the config does not read or parse, with the field. */
      error: string;
    };

/** Options of {@link createGatewayReloader}. */
export interface GatewayReloaderOptions {
  pool: Pick<UpstreamPool, 'reload'>;
  /**
   * Applies the new config's policy to the open sessions (`GatewayServer.applyConfig`);
   * throws, changing nothing, when it cannot. Absent: only the servers apply.
   */
  apply?: (config: GatewayConfig) => Promise<{ ended: string[] }>;
  /** The config the gateway runs with now. */
  current: GatewayConfig;
  /** Reads the config file again (`loadGatewayConfig(path)`); throws when it does not parse. */
  load: () => Promise<GatewayConfig>;
  /** Told each applied reload (the new config), e.g. for the server logs. */
  onApplied?: (config: GatewayConfig, report: GatewayReloadReport) => void;
}

/** Reloads a gateway's config: the servers, profiles and rules live, the rest reported. */
export interface GatewayReloader {
  /**
   * Reads the config again and applies its servers (added, removed, changed) and, with
   * `apply`, its profiles and rules while the sessions go on; with `dryRun`, only says what would change. A config that does not
   * parse changes nothing: the answer says why. One reload at a time.
   *
   * @throws nothing
   */
  reload(options?: { dryRun?: boolean }): Promise<GatewayReloadReport>;
  /** The config in force (the last applied). */
  config(): GatewayConfig;
}

function diffNames(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): PoolReloadReport {
  const report: PoolReloadReport = { added: [], removed: [], changed: [] };
  for (const name of Object.keys(before))
    if (!Object.hasOwn(after, name)) report.removed.push(name);
  for (const [name, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, name)) report.added.push(name);
    else if (!isDeepStrictEqual(before[name], value)) report.changed.push(name);
  }
  return report;
}

/** `current` with the servers of `next`, and with `live` its profiles and live sections too. */
function appliedConfig(current: GatewayConfig, next: GatewayConfig, live: boolean): GatewayConfig {
  const merged: Record<string, unknown> = { ...current, mcpServers: next.mcpServers };
  if (next.pins === undefined) delete merged['pins'];
  else merged['pins'] = next.pins;
  if (live) {
    for (const key of ['profiles', ...LIVE_SECTIONS]) {
      const value = next[key as keyof GatewayConfig];
      if (value === undefined) delete merged[key];
      else merged[key] = value;
    }
  }
  return merged as unknown as GatewayConfig;
}

/**
 * Creates the reloader behind `SIGHUP`, `tool-search-gateway reload` and the console's
 * Reload.
 *
 * @param options - see {@link GatewayReloaderOptions}
 * @returns the reloader
 * @throws nothing
 */
export function createGatewayReloader(options: GatewayReloaderOptions): GatewayReloader {
  let current = options.current;
  let queue: Promise<unknown> = Promise.resolve();
  const once = async (dryRun: boolean): Promise<GatewayReloadReport> => {
    let next: GatewayConfig;
    try {
      next = await options.load();
    } catch (error) {
      return { ok: false, error: `nothing changed: ${describeError(error)}` };
    }
    const servers = diffNames(current.mcpServers, next.mcpServers);
    const profiles = diffNames(current.profiles ?? {}, next.profiles ?? {});
    const sections = RULE_SECTIONS.filter(
      (key) =>
        !isDeepStrictEqual(current[key as keyof GatewayConfig], next[key as keyof GatewayConfig]),
    );
    const profilesChanged =
      profiles.added.length + profiles.removed.length + profiles.changed.length > 0;
    const live = options.apply === undefined ? new Set<string>() : LIVE_SECTIONS;
    const changed = [...(profilesChanged ? ['profiles'] : []), ...sections];
    // The pins are the pool's: they apply with the servers, with or without `apply`.
    const applied = changed.filter((key) =>
      key === 'pins' ? true : key === 'profiles' ? options.apply !== undefined : live.has(key),
    );
    const notApplied = changed.filter((key) => !applied.includes(key));
    const report: GatewayReloadReport = {
      ok: true,
      dryRun,
      servers,
      profiles,
      sections,
      applied,
      notApplied,
      endedSessions: [],
    };
    if (dryRun) return report;
    // The policy first: it is checked before anything changes, so a config it refuses
    // leaves the servers as they are too.
    if (options.apply !== undefined && applied.length > 0) {
      try {
        report.endedSessions = (await options.apply(next)).ended;
      } catch (error) {
        return { ok: false, error: `nothing changed: ${describeError(error)}` };
      }
    }
    report.servers = await options.pool.reload(next.mcpServers, { pins: next.pins });
    // The servers and the live sections are the new ones; the rest stays as it started.
    current = appliedConfig(current, next, options.apply !== undefined);
    options.onApplied?.(current, report);
    return report;
  };
  return {
    reload(reloadOptions = {}) {
      const run = queue.then(() => once(reloadOptions.dryRun === true));
      queue = run.catch(() => undefined);
      return run;
    },
    config: () => current,
  };
}
