// The console builds every node itself: text goes in as text nodes, never as markup.

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

/** Creates an element; strings among the children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children (text as text nodes). */
export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replace(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A value as indented JSON, for a <pre>. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' });

/** A moment as a `<time>`: the date, the time and the time zone, in the operator's locale. */
export function when(moment: string | number): HTMLTimeElement {
  const date = new Date(moment);
  return h('time', { datetime: date.toISOString() }, MOMENT.format(date));
}

/** A moment as text: the date, the time and the time zone. */
export function whenText(moment: string | number): string {
  return MOMENT.format(new Date(moment));
}

/** A duration in words. */
export function duration(ms: number | null): string {
  if (ms === null) return 'no calls yet';
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** A table with a caption, headers and rows. */
export function table(caption: string, headers: string[], rows: Child[][]): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', { class: 'muted' }, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((cells) =>
        h(
          'tr',
          {},
          cells.map((cell) => h('td', {}, cell)),
        ),
      ),
    ),
  );
}
