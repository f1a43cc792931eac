import type { ConsoleActivity } from '@tool-search/mcp-http';
import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import type { Page } from './types.js';

type Activity = ConsoleActivity;

function row(line: Activity): HTMLTableRowElement {
  const text = [line.tool, line.origin, line.sessionId, line.profile, line.status, line.kind]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return h(
    'tr',
    { 'data-text': text, 'data-status': line.status, 'data-kind': line.kind },
    h('td', {}, when(line.time)),
    h('td', {}, line.kind),
    h(
      'td',
      {},
      h('strong', {}, line.tool),
      line.origin ? h('div', { class: 'muted' }, line.origin) : null,
    ),
    h(
      'td',
      { class: `status-${line.status}` },
      line.status,
      line.detail ? h('div', { class: 'muted' }, line.detail) : null,
    ),
    h('td', {}, `${line.durationMs} ms`),
    h('td', {}, line.sessionId ? line.sessionId.slice(0, 8) : ''),
    h('td', {}, line.profile ?? 'gateway token'),
  );
}

/** The live feed of calls (every replica) and searches (this replica), filterable. */
export const activityPage: Page = (main) => {
  const filter = h('input', {
    id: 'activity-filter',
    type: 'search',
    placeholder: 'tool, session, profile',
  });
  const status = h(
    'select',
    { id: 'activity-status' },
    ['', 'ok', 'tool_error', 'denied', 'error', 'cancelled'].map((value) =>
      h('option', { value }, value === '' ? 'any outcome' : value),
    ),
  );
  const body = h('tbody', { id: 'activity-rows' });
  const apply = () => {
    const words = filter.value.trim().toLowerCase();
    for (const tr of body.rows) {
      const shown =
        (words === '' || (tr.dataset['text'] ?? '').includes(words)) &&
        (status.value === '' || tr.dataset['status'] === status.value);
      tr.hidden = !shown;
    }
  };
  filter.addEventListener('input', apply);
  status.addEventListener('change', apply);
  const empty = h(
    'tr',
    { 'data-empty': '' },
    h('td', { colspan: 7, class: 'muted' }, 'No call or search yet.'),
  );
  const add = (line: Activity) => {
    empty.remove();
    body.prepend(row(line));
    while (body.rows.length > 500) body.deleteRow(-1);
    apply();
  };
  replace(
    main,
    h('h2', {}, 'Activity'),
    h(
      'form',
      { role: 'search', onsubmit: (event: Event) => event.preventDefault() },
      h('label', { for: 'activity-filter' }, 'Filter'),
      filter,
      ' ',
      h('label', { for: 'activity-status' }, 'Outcome'),
      status,
    ),
    h(
      'table',
      {},
      h(
        'caption',
        { class: 'muted' },
        'Newest first; calls of every replica, searches of this one.',
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Time', 'Kind', 'Tool', 'Outcome', 'Latency', 'Session', 'Token'].map((name) =>
            h('th', { scope: 'col' }, name),
          ),
        ),
      ),
      body,
    ),
  );
  const stream = new EventSource('api/activity/stream');
  void get<{ activity: Activity[] }>('activity?count=200').then(({ activity }) => {
    if (activity.length === 0) body.append(empty);
    for (const line of activity) add(line);
    stream.addEventListener('activity', (event) =>
      add(JSON.parse((event as MessageEvent).data) as Activity),
    );
  });
  return () => stream.close();
};
