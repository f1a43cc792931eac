import type { GatewayReloadReport } from '@tool-search/mcp-http';
import type { ReloadOptions } from './command-flags.js';
import { readConfigFile } from './config-file.js';
import { safeText } from './inspect-review.js';

interface Output {
  write(text: string): unknown;
}

/**
 * The lines that say what a reload found and did.
 *
 * @param report - the gateway's answer
 * @returns the text, one fact a line
 * @throws nothing
 */
export function formatReloadReport(report: GatewayReloadReport): string {
  if (!report.ok) return `reload: ${safeText(report.error)}\n`;
  const names = (list: string[]) => (list.length ? list.map(safeText).join(', ') : '-');
  const lines = [
    `reload${report.dryRun ? ' (dry run: nothing applied)' : ''}:`,
    `  servers added: ${names(report.servers.added)}`,
    `  servers removed: ${names(report.servers.removed)}`,
    `  servers changed: ${names(report.servers.changed)}`,
  ];
  const { profiles } = report;
  if (profiles.added.length + profiles.removed.length + profiles.changed.length > 0) {
    lines.push(
      `  profiles added: ${names(profiles.added)}; removed: ${names(profiles.removed)}; changed: ${names(profiles.changed)}`,
    );
  }
  if (report.sections.length > 0) lines.push(`  sections changed: ${names(report.sections)}`);
  if (report.applied.length > 0) {
    lines.push(`  applied to the open sessions: ${names(report.applied)}`);
  }
  if (report.endedSessions.length > 0) {
    lines.push(`  sessions ended (profile removed): ${report.endedSessions.length}`);
  }
  if (report.notApplied.length > 0) {
    lines.push(`  applies at the next start: ${names(report.notApplied)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `reload`: checks the config file, then signs in to the running gateway's console API
 * with an operator's token and asks it to read the file again.
 *
 * @param options - the parsed flags
 * @param out - where the report goes @defaultValue process.stdout
 * @returns 0 when applied (or shown), 1 when the gateway refused or could not be reached
 * @throws {@link ConfigFileError} for a config file that does not parse (nothing is sent)
 */
export async function runReload(
  options: ReloadOptions,
  out: Output = process.stdout,
): Promise<number> {
  await readConfigFile(options.config);
  if (options.token === undefined) {
    process.stderr.write('error: reload needs an operator token (--token or the environment).\n');
    return 1;
  }
  const api = (path: string) => new URL(`/console/api/${path}`, options.url);
  try {
    const login = await fetch(api('login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: options.token }),
    });
    if (!login.ok) {
      const why =
        login.status === 404 ? 'its console is off (serve --console)' : `HTTP ${login.status}`;
      process.stderr.write(`error: the gateway at ${options.url} refused the sign-in: ${why}.\n`);
      return 1;
    }
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { csrf } = (await login.json()) as { csrf: string };
    const answer = await fetch(api('servers/reload'), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ dryRun: options.dryRun }),
    });
    const report = (await answer.json()) as GatewayReloadReport | { error: string };
    if (!('ok' in report)) {
      process.stderr.write(`error: reload: ${safeText(report.error)}\n`);
      return 1;
    }
    out.write(formatReloadReport(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(
      `error: cannot reach the gateway at ${options.url}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}
