import type { PendingApproval } from '@tool-search/mcp';
import { get, post } from '../api.js';
import { duration, h, json, replace, when } from '../dom.js';
import { every, type Page } from './types.js';

const CHOICES = [
  { decision: 'allow-once', label: 'Allow once', className: 'allow' },
  { decision: 'allow-session', label: 'Allow for the session', className: 'allow' },
  { decision: 'deny', label: 'Deny', className: 'deny' },
] as const;

const left = (item: { expiresAt: number }) => duration(Math.max(0, item.expiresAt - Date.now()));

function card(item: PendingApproval, answer: (decision: string) => void): HTMLElement {
  const where = item.origin ? `${item.origin.server}/${item.origin.name}` : item.tool;
  return h(
    'article',
    { class: 'card', 'data-approval': item.id, 'aria-label': `Approval for ${item.tool}` },
    h('h3', {}, item.tool),
    h(
      'p',
      { class: 'muted' },
      `Upstream tool ${where}`,
      item.toolset ? ` · toolset ${item.toolset}` : '',
      ` · session ${item.sessionId.slice(0, 8)}`,
      item.profile ? ` · profile ${item.profile}` : ' · gateway token',
    ),
    item.via === 'program'
      ? h(
          'p',
          { class: 'flag', 'data-program': item.programId ?? '' },
          `Called by a program (tool_program)${item.programId ? `, program ${item.programId}` : ''}: the model wrote code that makes this call.`,
        )
      : null,
    h(
      'p',
      {},
      'Asked ',
      when(item.askedAt),
      '; denied unanswered at ',
      when(item.expiresAt),
      ', in ',
      h('span', { class: 'countdown', 'data-countdown': String(item.expiresAt) }, left(item)),
      '.',
    ),
    item.destructive ? h('p', { class: 'flag' }, 'The tool says it may be destructive.') : null,
    h('p', {}, 'Arguments, exactly as they will run:'),
    h('pre', { 'data-arguments': '' }, json(item.arguments)),
    h(
      'div',
      { class: 'actions' },
      CHOICES.map(({ decision, label, className }) =>
        h(
          'button',
          {
            type: 'button',
            class: className,
            'data-decision': decision,
            'aria-label': `${label}: ${item.tool}`,
            onclick: () => answer(decision),
          },
          label,
        ),
      ),
    ),
  );
}

/** The approvals inbox: every call waiting for an operator, on any replica. */
export const approvalsPage: Page = (main, say) => {
  const list = h('div', { id: 'approvals' });
  replace(main, h('h2', {}, 'Approvals'), list);
  // Undefined until the first answer: an empty inbox is drawn (and said) on first load.
  let shown: string | undefined;
  const load = async () => {
    const { approvals } = await get<{ approvals: PendingApproval[] }>('approvals');
    for (const countdown of list.querySelectorAll<HTMLElement>('[data-countdown]')) {
      countdown.textContent = left({ expiresAt: Number(countdown.dataset['countdown']) });
    }
    const ids = approvals.map((item) => item.id).join(',');
    if (ids === shown) return;
    shown = ids;
    replace(
      list,
      approvals.length === 0
        ? h('p', { class: 'muted' }, 'No call is waiting for approval.')
        : approvals.map((item) =>
            card(item, (decision) => {
              // Answered once: its buttons go at once, so that no second click lands on it.
              for (const button of list.querySelectorAll<HTMLButtonElement>(
                `[data-approval="${CSS.escape(item.id)}"] button`,
              )) {
                button.disabled = true;
              }
              list.querySelector(`[data-approval="${CSS.escape(item.id)}"]`)?.remove();
              post('approvals/answer', { id: item.id, decision })
                .then(() => say(`${decision === 'deny' ? 'Denied' : 'Allowed'}: ${item.tool}`))
                .catch((error: Error) => say(error.message))
                .finally(() => {
                  shown = undefined;
                  void load();
                });
            }),
          ),
    );
  };
  return every(1000, load);
};
