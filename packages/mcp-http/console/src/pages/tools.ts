import type { ConsoleTool, ConsoleToolsView as ToolsView } from '@tool-search/mcp-http';
import { get, post } from '../api.js';
import { h, json, replace, table } from '../dom.js';
import type { Page } from './types.js';

type Tool = ConsoleTool;

/** New, changed or held in review, or carrying text aimed at the model. */
function needsAttention(tool: Tool): boolean {
  return ['new', 'changed', 'held'].includes(tool.review) || tool.poisoning.length > 0;
}

function reviewButtons(tool: Tool, act: (action: 'accept' | 'hold') => void): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
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

function details(tool: Tool): HTMLElement {
  return h(
    'details',
    { open: tool.review === 'changed' },
    h('summary', {}, tool.review === 'changed' ? 'Definition and what changed' : 'Definition'),
    diffOf(tool),
    h('p', { 'data-description': tool.key }, tool.description),
    h('pre', {}, json(tool.inputSchema)),
    tool.heldDetail ? h('p', { class: 'muted' }, tool.heldDetail) : null,
    learnedOf(tool),
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
        h('span', { 'data-tool': tool.key }, h('strong', {}, tool.name), details(tool)),
        tool.toolset ?? '',
        tool.loading,
        String(tool.tokens),
        h('span', { 'data-review': tool.key }, tool.review),
        tool.poisoning.length === 0
          ? ''
          : h(
              'ul',
              { class: 'flag' },
              tool.poisoning.map((flag) => h('li', {}, `${flag.label} (${flag.where})`)),
            ),
        reviewButtons(tool, act(tool)),
      ]);
    const headers = ['Tool', 'Toolset', 'Loading', 'Tokens', 'Review', 'Flags', ''];
    replace(
      main,
      h('h2', {}, 'Tools'),
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
  };
  void render().catch((error: Error) => say(error.message));
  return () => {};
};
