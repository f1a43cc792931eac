import { get } from '../api.js';
import { h, replace, table } from '../dom.js';
import { every, type Page } from './types.js';

interface Overview {
  toolsServed: number;
  upstreams: number;
  sessions: number;
  pendingApprovals: number;
  tokensSaved: { time: string; sessions: number; tokensSaved: number }[];
  perHour: { hour: string; calls: number; denials: number }[];
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** A bar chart of the tokens a turn is spared, sample by sample. */
function chart(samples: Overview['tokensSaved']): SVGElement {
  const width = 600;
  const height = 120;
  const most = Math.max(1, ...samples.map((sample) => sample.tokensSaved));
  // One sample a minute over two hours at most: a bar is never wider than 24 pixels.
  const bar = Math.min(24, width / Math.max(1, samples.length));
  const root = svg('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
  });
  const title = svg('title', {});
  title.textContent = `Tokens saved per turn: latest ${samples.at(-1)?.tokensSaved ?? 0}, most ${most}`;
  root.append(title);
  samples.forEach((sample, index) => {
    const tall = Math.round((sample.tokensSaved / most) * (height - 10));
    root.append(
      svg('rect', {
        x: index * bar + 1,
        y: height - tall,
        width: Math.max(1, bar - 2),
        height: tall,
      }),
    );
  });
  return root;
}

function stat(label: string, value: number): HTMLElement {
  return h('div', { class: 'stat' }, h('strong', {}, String(value)), label);
}

/** Tools served, tokens saved per turn over time, calls and denials per hour. */
export const overviewPage: Page = (main) => {
  return every(5000, async () => {
    const view = await get<Overview>('overview');
    replace(
      main,
      h('h2', {}, 'Overview'),
      h(
        'div',
        { class: 'stats' },
        stat('tools served', view.toolsServed),
        stat('upstream servers', view.upstreams),
        stat('sessions on this replica', view.sessions),
        stat('approvals waiting', view.pendingApprovals),
        stat('tokens saved per turn now', view.tokensSaved.at(-1)?.tokensSaved ?? 0),
      ),
      h('h3', {}, 'Tokens saved per turn (one sample a minute)'),
      chart(view.tokensSaved),
      table(
        'Calls and denials per hour (latest 2,000 calls)',
        ['Hour (UTC)', 'Calls', 'Denials'],
        view.perHour.map((hour) => [
          hour.hour.replace('T', ' '),
          String(hour.calls),
          String(hour.denials),
        ]),
      ),
    );
  });
};
