import type { ConsoleTool, ConsoleToolsView as ToolsView } from '@tool-search/mcp-http';
import { get, post } from '../api.js';
import { h, json, replace, table } from '../dom.js';
import { tryForm } from './try-form.js';
import type { Page } from './types.js';

type Tool = ConsoleTool;

/** New, changed or held in review, or carrying text aimed at the model. */
function needsAttention(tool: Tool): boolean {
  return ['new', 'changed', 'held'].includes(tool.review) || tool.poisoning.length > 0;
}

function reviewButtons(
  tool: Tool,
  act: (action: 'accept' | 'hold') => void,
  toggle: () => void,
): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      {
        type: 'button',
        class: tool.switchedOff ? 'allow' : 'deny',
        'aria-label': `${tool.switchedOff ? 'Switch on' : 'Switch off'} ${tool.key}`,
        'data-switch': tool.key,
        onclick: toggle,
      },
      tool.switchedOff ? 'Switch on' : 'Switch off',
    ),
    tool.review === 'accepted' || tool.review === 'unreviewed'
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: 'allow',
            'aria-label': `Accept ${tool.key}`,
            'data-accept': tool.key,
            onclick: () => act('accept'),
          },
          'Accept',
        ),
    tool.review === 'held' || tool.review === 'unreviewed'
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: 'deny',
            'aria-label': `Hold ${tool.key}`,
            'data-hold': tool.key,
            onclick: () => act('hold'),
          },
          'Hold',
        ),
  );
}

/** The change of a definition against the accepted one, line by line. */
function diffOf(tool: Tool): HTMLElement | null {
  if (tool.review !== 'changed') return null;
  if (tool.diff === undefined) {
    return h(
      'p',
      { class: 'muted' },
      'The accepted definition was accepted before this gateway started: no diff.',
    );
  }
  return h(
    'pre',
    { 'data-diff': tool.key, 'aria-label': `Changes of ${tool.key} since it was accepted` },
    tool.diff.map((line) =>
      line.kind === 'added'
        ? h('ins', {}, `+ ${line.text}\n`)
        : line.kind === 'removed'
          ? h('del', {}, `- ${line.text}\n`)
          : h('span', {}, `  ${line.text}\n`),
    ),
  );
}

/** What applies to the tool, in words: each a short tag. */
function policyOf(tool: Tool): HTMLElement {
  const tags: { text: string; kind: string; title: string }[] = [];
  if (tool.loading === 'held') {
    tags.push({ text: 'held', kind: 'bad', title: tool.heldDetail ?? 'Held by the tool review.' });
  }
  if (tool.switchedOff) {
    tags.push({
      text: 'switched off',
      kind: 'bad',
      title: 'An operator switched it off: every call is refused.',
    });
  }
  const policy = tool.policy;
  if (policy?.denied !== undefined) {
    tags.push({ text: 'denied by a guardrail', kind: 'bad', title: policy.denied });
  }
  if (policy?.approval === 'ask') {
    tags.push({
      text: 'needs approval',
      kind: 'warn',
      title: 'approval.require, or approval.otherwise is ask',
    });
  }
  if (policy?.approval === 'deny') {
    tags.push({
      text: 'refused by the approval policy',
      kind: 'bad',
      title: 'approval.otherwise is deny',
    });
  }
  if (policy?.readOnlyHint) {
    tags.push({
      text: 'says read-only (server’s word)',
      kind: 'muted',
      title: 'The upstream’s readOnlyHint: a hint that no control relies on by itself.',
    });
  }
  if (tags.length === 0)
    tags.push({ text: 'runs unasked', kind: 'muted', title: 'No guardrail or approval applies.' });
  return h(
    'ul',
    { class: 'tags', 'data-policy': tool.key },
    tags.map((tag) => h('li', { class: `tag tag-${tag.kind}`, title: tag.title }, tag.text)),
  );
}

function details(tool: Tool, say: (text: string) => void): HTMLElement {
  return h(
    'details',
    { open: tool.review === 'changed' },
    h(
      'summary',
      {},
      tool.review === 'changed' ? 'Definition and what changed' : 'Definition, try it',
    ),
    diffOf(tool),
    h('p', { 'data-description': tool.key }, tool.description),
    h('pre', {}, json(tool.inputSchema)),
    tool.heldDetail ? h('p', { class: 'muted' }, tool.heldDetail) : null,
    learnedOf(tool),
    tool.loading === 'held' ? null : tryForm(tool, say),
  );
}

/** The terms learned from use that led to the tool, per profile. */
function learnedOf(tool: Tool): HTMLElement | null {
  if (tool.learned === undefined || tool.learned.length === 0) return null;
  return h(
    'ul',
    { 'data-learned': tool.key },
    tool.learned.map((entry) =>
      h(
        'li',
        {},
        `Learned in ${entry.profile}: ${Object.entries(entry.terms)
          .map(([term, count]) => `${term} ${count}`)
          .join(', ')}`,
      ),
    ),
  );
}

/** The catalog by server: deferred or visible, tokens, review state, poisoning flags. */
export const toolsPage: Page = (main, say) => {
  const filter = h('input', {
    id: 'tools-filter',
    type: 'search',
    placeholder: 'name, server, toolset, policy',
  });
  const content = h('div');
  const applyFilter = () => {
    const words = filter.value.trim().toLowerCase();
    for (const tr of content.querySelectorAll<HTMLTableRowElement>('tbody tr')) {
      tr.hidden =
        words !== '' && !(tr.dataset['text'] ?? tr.textContent ?? '').toLowerCase().includes(words);
    }
  };
  filter.addEventListener('input', applyFilter);
  replace(
    main,
    h('h2', {}, 'Tools'),
    h(
      'form',
      { role: 'search', onsubmit: (event: Event) => event.preventDefault() },
      h('label', { for: 'tools-filter' }, 'Filter tools'),
      filter,
    ),
    content,
  );
  const render = async () => {
    const view = await get<ToolsView>('tools');
    const act = (tool: Tool) => (action: 'accept' | 'hold') => {
      post(`tools/${action}`, { key: tool.key })
        .then(() => say(`${action === 'accept' ? 'Accepted' : 'Held'}: ${tool.key}`))
        .catch((error: Error) => say(error.message))
        .finally(() => window.setTimeout(() => void render(), 1200));
    };
    const servers = [...new Set(view.tools.map((tool) => tool.server))];
    const attention = view.tools.filter(needsAttention);
    const rows = (tools: Tool[]) =>
      tools.map((tool) => [
        h('span', { 'data-tool': tool.key }, h('strong', {}, tool.name), details(tool, say)),
        tool.toolset ?? '',
        tool.loading,
        policyOf(tool),
        String(tool.tokens),
        h('span', { 'data-review': tool.key }, tool.review),
        tool.poisoning.length === 0
          ? ''
          : h(
              'ul',
              { class: 'flag' },
              tool.poisoning.map((flag) => h('li', {}, `${flag.label} (${flag.where})`)),
            ),
        reviewButtons(tool, act(tool), () => {
          const off = tool.switchedOff !== true;
          post('tools/switch', { key: tool.key, off })
            .then(() => say(`${off ? 'Switched off' : 'Switched on'}: ${tool.key}`))
            .catch((error: Error) => say(error.message))
            .finally(() => void render());
        }),
      ]);
    const headers = ['Tool', 'Toolset', 'Loading', 'Policy', 'Tokens', 'Review', 'Flags', ''];
    replace(
      content,
      h(
        'p',
        { class: 'muted' },
        `Review: ${view.hold === 'none' ? 'off (review.hold is none)' : `holding ${view.hold}`}. ${
          view.searchActive
            ? 'Tool search is active: deferred tools are found through tool_search.'
            : 'Tool search is not active at this size: every tool is listed.'
        }`,
      ),
      attention.length === 0
        ? h('p', { class: 'muted' }, 'No tool is new, changed, held or flagged.')
        : table('Needs review: new, changed, held or flagged tools', headers, rows(attention)),
      servers.map((server) =>
        table(
          `Server ${server}`,
          headers,
          rows(view.tools.filter((tool) => tool.server === server && !needsAttention(tool))),
        ),
      ),
      h('h3', {}, 'Rules that match no tool'),
      view.unmatchedRules.length === 0
        ? h('p', { class: 'muted' }, 'Every rule matches a tool.')
        : h(
            'ul',
            {},
            view.unmatchedRules.map((rule) => h('li', {}, `${rule.path}: ${rule.pattern}`)),
          ),
    );
    // What the filter matches: the row's words, not its definition's text.
    for (const tr of content.querySelectorAll<HTMLTableRowElement>('tbody tr')) {
      const cells = [...tr.cells];
      const key = cells[0]?.querySelector('[data-tool]')?.getAttribute('data-tool') ?? '';
      tr.dataset['text'] = [key, ...cells.slice(1).map((cell) => cell.textContent ?? '')].join(' ');
    }
    applyFilter();
  };
  void render().catch((error: Error) => say(error.message));
  return () => {};
};
