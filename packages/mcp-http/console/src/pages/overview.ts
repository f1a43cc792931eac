import { get } from '../api.js';
import { h, replace, table, whenText } from '../dom.js';
import { every, type Page } from './types.js';

interface Overview {
  toolsServed: number;
  upstreams: number;
  sessions: number;
  pendingApprovals: number;
  tokensSaved: { time: string; sessions: number; tokensSaved: number }[];
  perHour: { hour: string; calls: number; failures?: number; denials: number }[];
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** Text in the chart (as a text node: nothing in it is markup). */
function label(x: number, y: number, text: string, anchor = 'start'): SVGElement {
  const node = svg('text', { x, y, 'text-anchor': anchor });
  node.textContent = text;
  return node;
}

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/**
 * A bar chart of the tokens a turn is spared, sample by sample: a y axis with its scale
 * (0 and the most), an x axis with the first and last sample's time, and the latest value.
 */
function chart(samples: Overview['tokensSaved']): SVGElement {
  const width = 640;
  const height = 170;
  const left = 56;
  const bottom = 24;
  const top = 14;
  const plotWidth = width - left - 8;
  const plotHeight = height - bottom - top;
  const most = Math.max(1, ...samples.map((sample) => sample.tokensSaved));
  // One sample a minute over two hours at most: a bar is never wider than 24 pixels.
  const bar = Math.min(24, plotWidth / Math.max(1, samples.length));
  const latest = samples.at(-1)?.tokensSaved ?? 0;
  const root = svg('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-labelledby': 'tokens-chart-title',
  });
  const title = svg('title', { id: 'tokens-chart-title' });
  title.textContent = `Tokens saved per turn: latest ${latest}, most ${most}, over ${samples.length} samples`;
  root.append(title);
  const baseline = top + plotHeight;
  root.append(
    svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: baseline }),
    svg('line', { class: 'axis', x1: left, y1: baseline, x2: width - 8, y2: baseline }),
    label(left - 6, top + 8, most.toLocaleString(), 'end'),
    label(left - 6, baseline, '0', 'end'),
    label(4, top + plotHeight / 2, 'tokens', 'start'),
  );
  if (samples.length > 0) {
    root.append(label(left, height - 6, clock.format(new Date(samples[0]!.time))));
    root.append(
      label(width - 8, height - 6, `${clock.format(new Date(samples.at(-1)!.time))} (now)`, 'end'),
    );
  }
  samples.forEach((sample, index) => {
    const tall = Math.round((sample.tokensSaved / most) * plotHeight);
    const rect = svg('rect', {
      x: left + index * bar + 1,
      y: baseline - tall,
      width: Math.max(1, bar - 2),
      height: tall,
    });
    const tip = svg('title', {});
    tip.textContent = `${clock.format(new Date(sample.time))}: ${sample.tokensSaved.toLocaleString()} tokens, ${sample.sessions} sessions`;
    rect.append(tip);
    root.append(rect);
  });
  root.append(label(width - 8, top, `latest ${latest.toLocaleString()}`, 'end'));
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
      view.perHour.length === 0
        ? h('p', { class: 'muted' }, 'No call yet.')
        : table(
            'Calls, failures and denials per hour (latest 2,000 calls)',
            ['Hour', 'Calls', 'Failed', 'Denied'],
            view.perHour.map((hour) => [
              whenText(`${hour.hour}:00Z`),
              String(hour.calls),
              String(hour.failures ?? 0),
              String(hour.denials),
            ]),
          ),
    );
  });
};
