import type { ConsoleSearchHit } from '@tool-search/mcp-http';
import { get } from '../api.js';
import { h, replace } from '../dom.js';
import type { Page } from './types.js';

type Hit = ConsoleSearchHit;

interface SearchAnswer {
  query: string;
  profiles: string[];
  learning: boolean;
  hits: Hit[];
}

function hitItem(hit: Hit): HTMLElement {
  const why = Object.entries(hit.matched)
    .filter(([, terms]) => terms.length > 0)
    .map(([field, terms]) => `${field}: ${terms.join(', ')}`);
  return h(
    'li',
    { class: 'card' },
    h('strong', {}, hit.name),
    ` · score ${hit.score.toFixed(3)}`,
    hit.toolset ? ` · ${hit.toolset}` : '',
    h('p', {}, hit.description),
    h(
      'p',
      { class: 'muted' },
      why.length === 0
        ? 'No query term matched a field literally (the ranker matched otherwise).'
        : `Matched ${why.join('; ')}`,
    ),
    h(
      'p',
      { class: 'muted' },
      hit.learned.length === 0 ? 'Learned terms: none' : `Learned terms: ${hit.learned.join(', ')}`,
    ),
  );
}

/** A query box: the profile's ranked hits and why each ranked. */
export const searchPage: Page = (main, say) => {
  const query = h('input', { id: 'search-query', type: 'search', required: true });
  const profile = h(
    'select',
    { id: 'search-profile' },
    h('option', { value: '' }, 'gateway token (every tool)'),
  );
  const results = h('ol', { id: 'search-hits' });
  const run = async () => {
    const answer = await get<SearchAnswer>(
      `search?q=${encodeURIComponent(query.value)}&profile=${encodeURIComponent(profile.value)}`,
    );
    replace(
      results,
      answer.hits.length === 0 ? h('li', { class: 'muted' }, 'No hits.') : answer.hits.map(hitItem),
    );
  };
  void get<SearchAnswer>('search?q=').then(({ profiles, learning }) => {
    for (const name of profiles) profile.append(h('option', { value: name }, name));
    say(learning ? 'Learning is on.' : 'Learning is off: no learned terms.');
  });
  replace(
    main,
    h('h2', {}, 'Search'),
    h(
      'form',
      {
        role: 'search',
        onsubmit: (event: Event) => {
          event.preventDefault();
          void run().catch((error: Error) => say(error.message));
        },
      },
      h('label', { for: 'search-query' }, 'Query'),
      query,
      ' ',
      h('label', { for: 'search-profile' }, 'Profile'),
      profile,
      ' ',
      h('button', { type: 'submit' }, 'Search'),
    ),
    results,
  );
  return () => {};
};
