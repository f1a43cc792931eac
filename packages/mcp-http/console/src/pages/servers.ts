import { get, post } from '../api.js';
import { h, replace, table } from '../dom.js';
import { every, type Page } from './types.js';

interface Upstream {
  name: string;
  state: string;
  tools: number;
  error: string | null;
}

interface LogLine {
  time: string;
  source: 'stderr' | 'event';
  text: string;
}

interface Names {
  added: string[];
  removed: string[];
  changed: string[];
}

interface ReloadReport {
  ok: true;
  dryRun: boolean;
  servers: Names;
  profiles: Names;
  sections: string[];
  applied: string[];
  notApplied: string[];
  endedSessions: string[];
}

const list = (names: string[]) => (names.length > 0 ? names.join(', ') : 'none');

/** What a reload found, as a list (every name as text). */
function reportOf(report: ReloadReport): HTMLElement {
  const items = [
    `Servers added: ${list(report.servers.added)}`,
    `Servers removed: ${list(report.servers.removed)}`,
    `Servers changed: ${list(report.servers.changed)}`,
  ];
  const { profiles } = report;
  if (profiles.added.length + profiles.removed.length + profiles.changed.length > 0) {
    items.push(
      `Profiles added: ${list(profiles.added)}; removed: ${list(profiles.removed)}; changed: ${list(profiles.changed)}`,
    );
  }
  if (report.sections.length > 0) items.push(`Sections changed: ${list(report.sections)}`);
  if (report.applied.length > 0) {
    items.push(`Applies to the open sessions' next requests: ${list(report.applied)}`);
  }
  if (report.endedSessions.length > 0) {
    items.push(`Sessions ended (their profile was removed): ${report.endedSessions.length}`);
  }
  if (report.notApplied.length > 0) {
    items.push(`Applies when the gateway starts again: ${list(report.notApplied)}`);
  }
  return h(
    'section',
    { 'aria-label': 'Reload result', id: 'reload-result' },
    h('p', {}, report.dryRun ? 'What a reload would change (nothing applied):' : 'Applied:'),
    h(
      'ul',
      {},
      items.map((item) => h('li', {}, item)),
    ),
  );
}

/** The upstream servers: restart one, read its recent output, reload the config. */
export const serversPage: Page = (main, say) => {
  const result = h('div', { id: 'reload-area' });
  const servers = h('div');
  const output = h('section', { 'aria-label': 'Server output', id: 'server-output' });
  let shown: string | undefined;
  const reload = (dryRun: boolean) =>
    void post<ReloadReport>('servers/reload', { dryRun })
      .then((report) => {
        replace(result, reportOf(report));
        say(dryRun ? 'Read the config: nothing applied.' : 'Reloaded the config.');
      })
      .catch((error: Error) => {
        replace(result, h('p', { role: 'alert', class: 'status-denied' }, error.message));
        say('The config was not reloaded.');
      });
  const showOutput = async (name: string) => {
    const { lines } = await get<{ lines: LogLine[] }>(
      `servers/logs?server=${encodeURIComponent(name)}`,
    );
    replace(
      output,
      h('h3', {}, `Recent output of ${name}`),
      lines.length === 0
        ? h('p', { class: 'muted' }, 'Nothing yet.')
        : h(
            'pre',
            { class: 'server-output' },
            lines.map(
              (line) => `${line.time} ${line.source === 'event' ? '[event] ' : ''}${line.text}\n`,
            ),
          ),
    );
  };
  replace(
    main,
    h('h2', {}, 'Servers'),
    h(
      'p',
      {},
      h(
        'button',
        { type: 'button', id: 'reload-preview', onclick: () => reload(true) },
        'Show what a reload changes',
      ),
      ' ',
      h(
        'button',
        { type: 'button', id: 'reload', onclick: () => reload(false) },
        'Reload the config',
      ),
    ),
    result,
    servers,
    output,
  );
  return every(3000, async () => {
    const { upstreams } = await get<{ upstreams: Upstream[] }>('upstreams');
    replace(
      servers,
      table(
        'Upstream servers',
        ['Server', 'State', 'Tools', 'Last error', '', ''],
        upstreams.map((server) => [
          server.name,
          server.state,
          String(server.tools),
          server.error ?? '',
          h(
            'button',
            {
              type: 'button',
              'aria-label': `Restart ${server.name}`,
              onclick: () => {
                say(`Restarting ${server.name}…`);
                void post('servers/restart', { server: server.name })
                  .then(() => say(`Restarted ${server.name}.`))
                  .catch((error: Error) => say(error.message));
              },
            },
            'Restart',
          ),
          h(
            'button',
            {
              type: 'button',
              'aria-label': `Output of ${server.name}`,
              onclick: () => {
                shown = server.name;
                void showOutput(server.name).catch((error: Error) => say(error.message));
              },
            },
            'Output',
          ),
        ]),
      ),
    );
    if (shown !== undefined) await showOutput(shown);
  });
};
