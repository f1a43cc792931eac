import type { ConsoleActivity } from '@tool-search/mcp-http';
import { get } from '../api.js';
import { duration, h, replace, when } from '../dom.js';
import type { Page } from './types.js';

type Activity = ConsoleActivity;

/** Who a principal is, in words. */
export function principalName(principal: string): string {
  if (principal === 'default') return 'the gateway token';
  return principal.startsWith('profile:') ? `profile ${principal.slice(8)}` : principal;
}

/** The approval cell: the decision, who gave it and when, or nothing. */
function approvalCell(line: Activity): (HTMLElement | string)[] {
  const approval = line.approval;
  if (approval === undefined) return [];
  const word =
    approval.decision === 'remembered'
      ? 'allowed for the session earlier'
      : approval.decision === 'deny'
        ? 'denied'
        : approval.decision === 'allow-session'
          ? 'allowed for the session'
          : 'allowed once';
  // Nobody named and no wait: the rules (or the fallback for a client that cannot be asked)
  // answered, not a person.
  const byRules = approval.by === undefined && approval.waitMs === 0;
  return [
    h(
      'div',
      { 'data-approval-by': approval.by ?? '' },
      approval.by
        ? `${word} by ${principalName(approval.by)}`
        : byRules
          ? `${word} by the approval rules`
          : word,
    ),
    // The moment of a person's answer; a rule's answer has none worth showing.
    approval.by && approval.at ? h('div', { class: 'muted' }, when(approval.at)) : '',
  ];
}

/** The latency: the gateway's and the tool's time, with the wait for a person apart. */
function latency(line: Activity): (HTMLElement | string)[] {
  const wait = line.approval?.waitMs;
  if (wait === undefined || wait < 1) return [`${line.durationMs} ms`];
  return [
    `${Math.max(0, line.durationMs - wait)} ms`,
    h(
      'div',
      { class: 'muted', 'data-wait': String(wait) },
      `+ ${duration(wait)} waiting for approval`,
    ),
  ];
}

/** What ran and what came back, when the gateway keeps it (`console.callDetails`). */
function callDetails(line: Activity): HTMLElement | null {
  if (line.arguments === undefined && line.result === undefined) return null;
  return h(
    'details',
    { 'data-call-details': line.id },
    h('summary', {}, 'Arguments and result'),
    line.arguments === undefined
      ? null
      : [
          h('div', { class: 'muted' }, 'Arguments as they ran:'),
          h('pre', { 'data-ran-with': '' }, line.arguments),
        ],
    line.result === undefined
      ? null
      : [
          h('div', { class: 'muted' }, 'Result (start):'),
          h('pre', { 'data-result': '' }, line.result),
        ],
  );
}

function row(line: Activity): HTMLTableRowElement {
  const text = [
    line.tool,
    line.origin,
    line.sessionId,
    line.profile,
    line.status,
    line.kind,
    line.programId,
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return h(
    'tr',
    {
      'data-text': text,
      'data-status': line.status,
      'data-kind': line.kind,
      'data-program': line.programId,
    },
    h('td', {}, when(line.time)),
    h('td', {}, line.via === 'program' ? 'call in program' : line.kind),
    h(
      'td',
      {},
      h('strong', {}, line.tool),
      line.origin ? h('div', { class: 'muted' }, line.origin) : null,
      callDetails(line),
    ),
    h(
      'td',
      { class: `status-${line.status}` },
      line.status === 'tool_error' ? 'failed (tool error)' : line.status,
      line.detail ? h('div', { class: 'muted' }, line.detail) : null,
    ),
    h('td', {}, approvalCell(line)),
    h('td', {}, latency(line)),
    h('td', {}, line.sessionId ? line.sessionId.slice(0, 8) : ''),
    h('td', {}, line.profile ?? 'gateway token'),
  );
}

/** The group of one program's calls: its own body, headed by the program's id. */
function programGroup(programId: string): HTMLTableSectionElement {
  return h(
    'tbody',
    { class: 'program', 'data-program-group': programId },
    h(
      'tr',
      { class: 'program-head' },
      h(
        'th',
        { colspan: COLUMNS.length, scope: 'rowgroup' },
        `Program ${programId} (tool_program): its calls`,
      ),
    ),
  );
}

const COLUMNS = ['Time', 'Kind', 'Tool', 'Outcome', 'Approval', 'Latency', 'Session', 'Token'];

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
  const table = h('table', { id: 'activity-table' });
  const body = h('tbody', { id: 'activity-rows' });
  const allRows = () => [...table.querySelectorAll<HTMLTableRowElement>('tr[data-status]')];
  const apply = () => {
    const words = filter.value.trim().toLowerCase();
    for (const tr of allRows()) {
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
    h('td', { colspan: COLUMNS.length, class: 'muted' }, 'No call or search yet.'),
  );
  const add = (line: Activity) => {
    empty.remove();
    if (line.programId === undefined) {
      body.prepend(row(line));
      while (body.rows.length > 500) body.deleteRow(-1);
    } else {
      // A program's calls stay together, under the program, newest program first.
      const group =
        table.querySelector<HTMLTableSectionElement>(
          `tbody[data-program-group="${CSS.escape(line.programId)}"]`,
        ) ?? programGroup(line.programId);
      group.rows[0]!.after(row(line));
      table.tBodies[0]?.before(group);
    }
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
    table,
  );
  replace(
    table,
    h('caption', { class: 'muted' }, 'Newest first; calls of every replica, searches of this one.'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        COLUMNS.map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    body,
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
