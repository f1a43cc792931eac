/** A frame of the flame graph: its label, total time, and the frames it called. */
interface FlameNode {
  label: string;
  total: number;
  children: Map<string, FlameNode>;
}

const WIDTH = 1200;
const ROW = 16;
const FONT = 11;
/** Roughly how wide one character of the label is, to cut labels to their box. */
const CHAR = 6.2;

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function treeOf(lines: readonly string[]): FlameNode {
  const root: FlameNode = { label: 'all', total: 0, children: new Map() };
  for (const line of lines) {
    const space = line.lastIndexOf(' ');
    const weight = Number(line.slice(space + 1));
    if (!Number.isFinite(weight) || weight <= 0) continue;
    let node = root;
    node.total += weight;
    for (const label of line.slice(0, space).split(';')) {
      let child = node.children.get(label);
      if (child === undefined) {
        child = { label, total: 0, children: new Map() };
        node.children.set(label, child);
      }
      child.total += weight;
      node = child;
    }
  }
  return root;
}

/** A warm colour from the label, so that one function keeps its colour across graphs. */
function colourOf(label: string): string {
  let hash = 0;
  for (const char of label) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const ours = /(^|\s)(packages|apps|mcp|bridge|hooks|core)\//.test(label);
  return ours
    ? `rgb(${200 + (hash % 55)},${90 + (hash % 70)},${40 + (hash % 30)})`
    : `rgb(${220 + (hash % 35)},${150 + (hash % 80)},${50 + (hash % 40)})`;
}

/**
 * A flame graph as a standalone SVG, from collapsed stacks, drawn top down (an icicle:
 * the root under the title, so that the widest frames come first): each frame as wide
 * as its share of the time, its callees below it (left to right by weight); a frame's
 * full label and time are in its `<title>` (a tooltip).
 *
 * @param lines - collapsed stacks, `a;b;c <weight>` (see `collapsedStacks`)
 * @param title - the line above the graph
 * @param minWidth - frames narrower than this many pixels are left out
 * @returns the SVG document
 * @throws nothing
 */
export function flameGraphSvg(lines: readonly string[], title: string, minWidth = 1): string {
  const root = treeOf(lines);
  const scale = root.total === 0 ? 0 : WIDTH / root.total;
  const boxes: string[] = [];
  let deepest = 0;
  const draw = (node: FlameNode, x: number, level: number) => {
    const width = node.total * scale;
    if (width < minWidth) return;
    deepest = Math.max(deepest, level);
    const y = (level + 1) * ROW + 8;
    const share = root.total === 0 ? 0 : (100 * node.total) / root.total;
    const label = `${node.label} (${(node.total / 1000).toFixed(1)} ms, ${share.toFixed(1)}%)`;
    const fits = Math.floor((width - 4) / CHAR);
    const text =
      fits < 3 ? '' : node.label.length <= fits ? node.label : `${node.label.slice(0, fits - 1)}…`;
    boxes.push(
      `<g><title>${escapeXml(label)}</title><rect x="${x.toFixed(2)}" y="${y}" width="${width.toFixed(2)}" height="${ROW - 1}" fill="${colourOf(node.label)}" rx="1"/>${
        text === ''
          ? ''
          : `<text x="${(x + 2).toFixed(2)}" y="${y + ROW - 5}">${escapeXml(text)}</text>`
      }</g>`,
    );
    let childX = x;
    const children = [...node.children.values()].sort((a, b) => b.total - a.total);
    for (const child of children) {
      draw(child, childX, level + 1);
      childX += child.total * scale;
    }
  };
  draw(root, 0, 0);
  const height = (deepest + 2) * ROW + 12;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="monospace" font-size="${FONT}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" fill="#fdfdf8"/>`,
    `<text x="4" y="${ROW}" font-size="${FONT + 2}">${escapeXml(title)}</text>`,
    ...boxes,
    '</svg>',
    '',
  ].join('\n');
}
