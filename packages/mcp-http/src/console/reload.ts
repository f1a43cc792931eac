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
       * What changed but applies only when the gateway starts again (profiles and rule
       * sections are fixed for the life of a gateway's sessions).
       */
      notApplied: string[];
    }
  | {
      ok: false;
      /** Why nothing changed: the config does not read or parse, with the field. */
      error: string;
    };

/** Options of {@link createGatewayReloader}. */
export interface GatewayReloaderOptions {
  pool: Pick<UpstreamPool, 'reload'>;
  /** The config the gateway runs with now. */
  current: GatewayConfig;
  /** Reads the config file again (`loadGatewayConfig(path)`); throws when it does not parse. */
  load: () => Promise<GatewayConfig>;
  /** Told each applied reload (the new config), e.g. for the server logs. */
  onApplied?: (config: GatewayConfig, report: GatewayReloadReport) => void;
}

/** Reloads a gateway's config: the servers live, the rest reported. */
export interface GatewayReloader {
  /**
   * Reads the config again and applies its servers (added, removed, changed) while the
   * sessions go on; with `dryRun`, only says what would change. A config that does not
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
    const notApplied = [
      ...(profiles.added.length + profiles.removed.length + profiles.changed.length > 0
        ? ['profiles']
        : []),
      ...sections,
    ];
    const report: GatewayReloadReport = {
      ok: true,
      dryRun,
      servers,
      profiles,
      sections,
      notApplied,
    };
    if (dryRun) return report;
    report.servers = await options.pool.reload(next.mcpServers);
    // The servers are the new ones; the rest stays as the gateway started.
    current = { ...current, mcpServers: next.mcpServers };
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
