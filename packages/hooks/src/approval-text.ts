import { sanitizeTerminalText } from './terminal-text.js';

// How an approval question renders a call's arguments and names for a person: the
// escaping, the runs, the reading budget and the cuts. The contract is
// renderApprovalQuestion (approval-question.ts); this is its workshop.

/** One field of the arguments that the question does not show whole. */
export interface ArgumentCut {
  /** Where it is: `content`, `files[2].body`, `["odd key"]`; shown escaped. */
  field: string;
  /** Its length: characters of a string field, rendered characters otherwise. */
  totalChars: number;
  /** How many of those the question leaves out. */
  cutChars: number;
}

// Characters that show as nothing or as a plain space, on top of what
// sanitizeTerminalText escapes (controls, bidi, zero-width): other Unicode spaces, the
// soft hyphen, fillers, variation selectors (which can smuggle data behind an emoji),
// interlinear annotation marks. Escaped in questions only: tool descriptions may use them
// innocently, a question must show exactly what runs.
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each is matched alone, to be escaped
  /[\u00a0\u00ad\u034f\u115f\u1160\u1680\u17b4\u17b5\u180e\u2000-\u200a\u202f\u205f\u2800\u3000\u3164\ufe00-\ufe0f\uffa0\ufff9-\ufffb]|\udb40[\udd00-\uddef]/g;

// One shown unit: an escape we wrote (a lone backslash always starts one, since a
// backslash of the text is shown as `\\`) or one code point.
const UNIT = /\\(?:x[0-9a-f]{2}|u\{[0-9a-f]+\}|u[0-9a-f]{4}|.)|[\s\S]/gu;

// A run of this many identical whitespace or escaped units or more is shown by its length.
const RUN = 3;
// Nesting deeper than this is not shown (and counts as a cut): no stack overflow.
const MAX_DEPTH = 64;

/** A count as a person reads it: `12,345`. */
export const count = (n: number) => n.toLocaleString('en-US');
const marker = (cut: number) => `⟨${count(cut)} characters cut⟩`;
const LONGEST_MARKER = marker(10 ** 12).length;

function visibleUnit(character: string): string {
  const code = character.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

interface Leaf {
  field: string;
  units: string[];
  sources: number[];
  keep: number;
  /** Characters past the ones read (see `units`): always cut. */
  rest: number;
  /** Shown instead, for a value that cannot be shown at all (always a cut). */
  label?: string;
}

// The units of a string shown in a question: JSON escapes (quote, backslash, C0), then
// the terminal escapes (C1, bidi, zero-width), then the invisible ones, and the angle
// brackets our markers use, so that a marker can never be typed by the model. Only the
// first `limit` characters are read (the rest is counted in `rest`), so that a question
// about megabytes of arguments costs no more than one about a few times its size.
function units(
  whole: string,
  limit = Number.POSITIVE_INFINITY,
): { units: string[]; sources: number[]; rest: number } {
  let end = Math.min(whole.length, limit);
  // Never split a surrogate pair.
  if (end > 0 && end < whole.length && /[\ud800-\udbff]/.test(whole[end - 1]!)) end -= 1;
  const text = end === whole.length ? whole : whole.slice(0, end);
  const json = JSON.stringify(text).slice(1, -1);
  const shown = sanitizeTerminalText(json, { multiline: false })
    .replace(INVISIBLE, visibleUnit)
    .replace(/[⟨⟩]/g, visibleUnit);
  const raw = shown.match(UNIT) ?? [];
  const out: string[] = [];
  const sources: number[] = [];
  // What one shown unit stands for in the text: an escaped astral character is two
  // UTF-16 units, every other escape one, a plain character itself.
  const sourceOf = (unit: string) =>
    unit.startsWith('\\') ? (unit.startsWith('\\u{') ? 2 : 1) : unit.length;
  for (let index = 0; index < raw.length; ) {
    const unit = raw[index]!;
    let next = index + 1;
    while (next < raw.length && raw[next] === unit) next += 1;
    const length = next - index;
    const repeatable = unit === ' ' || (unit.startsWith('\\') && unit !== '\\\\' && unit !== '\\"');
    if (repeatable && length >= RUN) {
      out.push(unit === ' ' ? `⟨${count(length)} spaces⟩` : `⟨${count(length)} × ${unit}⟩`);
      sources.push(length * sourceOf(unit));
    } else {
      for (let k = 0; k < length; k += 1) {
        out.push(unit);
        sources.push(sourceOf(unit));
      }
    }
    index = next;
  }
  return { units: out, sources, rest: whole.length - end };
}

const unshown = (field: string, label: string): Leaf => ({
  field,
  units: [label],
  sources: [1],
  keep: 0,
  rest: 0,
  label,
});

type Part = { text: string; top: string } | { leaf: Leaf; top: string };

// The longest key or tool name shown whole; a longer one is cut (and said to be).
const NAME_CHARS = 200;

/** A tool name or key as shown: escaped, and cut (with a marker) past 200 characters. */
export function shownName(name: string): { text: string; rest: number } {
  const read = units(name, NAME_CHARS);
  const text = read.units.join('');
  return { text: read.rest > 0 ? text + marker(read.rest) : text, rest: read.rest };
}

function fieldOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const shown = shownName(key).text;
  if (/^[A-Za-z_$][\w$-]*$/.test(shown)) return parent === '' ? shown : `${parent}.${shown}`;
  return `${parent}["${shown}"]`;
}

// Renders a value as JSON would send it (toJSON, undefined and functions left out of
// objects, null in arrays, non-finite numbers as null), strings as shown units. Reads
// at most `budget` characters of strings in all; what lies past it is cut.
function render(value: unknown, budget: number): { parts: Part[]; cuts: ArgumentCut[] } {
  const parts: Part[] = [];
  const cuts: ArgumentCut[] = [];
  let left = budget;
  const seen = new Set<object>();
  const walk = (
    input: unknown,
    key: string | number,
    field: string,
    top: string,
    depth: number,
  ) => {
    let current = input;
    if (
      current !== null &&
      typeof current === 'object' &&
      typeof (current as { toJSON?: unknown }).toJSON === 'function'
    ) {
      try {
        current = (current as { toJSON(key: string): unknown }).toJSON(String(key));
      } catch {
        parts.push({ leaf: unshown(field, '⟨cannot be shown⟩'), top });
        return;
      }
    }
    if (typeof current === 'string') {
      const shown = units(current, left);
      left -= current.length - shown.rest;
      parts.push({ text: '"', top });
      parts.push({ leaf: { field, ...shown, keep: shown.units.length }, top });
      parts.push({ text: '"', top });
      return;
    }
    if (typeof current === 'number') {
      parts.push({ text: Number.isFinite(current) ? String(current) : 'null', top });
      return;
    }
    if (typeof current === 'boolean' || current === null) {
      parts.push({ text: String(current), top });
      return;
    }
    if (typeof current === 'bigint') {
      parts.push({ text: `${current}n`, top });
      return;
    }
    if (typeof current !== 'object') {
      parts.push({ text: 'null', top });
      return;
    }
    if (seen.has(current)) {
      parts.push({ text: '⟨circular⟩', top });
      return;
    }
    if (depth >= MAX_DEPTH) {
      parts.push({ leaf: unshown(field, '⟨nested too deep⟩'), top });
      return;
    }
    seen.add(current);
    if (Array.isArray(current)) {
      parts.push({ text: '[', top });
      current.forEach((item, index) => {
        if (index > 0) parts.push({ text: ',', top });
        const child = fieldOf(field, index);
        walk(
          item === undefined || typeof item === 'function' ? null : item,
          index,
          child,
          top || child,
          depth + 1,
        );
      });
      parts.push({ text: ']', top });
    } else {
      parts.push({ text: '{', top });
      let first = true;
      for (const [name, item] of Object.entries(current)) {
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        if (!first) parts.push({ text: ',', top });
        first = false;
        const child = fieldOf(field, name);
        const key = shownName(name);
        if (key.rest > 0) {
          cuts.push({ field: `${child} (its name)`, totalChars: name.length, cutChars: key.rest });
        }
        parts.push({ text: `"${key.text}":`, top: top || child });
        walk(item, name, child, top || child, depth + 1);
      }
      parts.push({ text: '}', top });
    }
    seen.delete(current);
  };
  walk(value ?? {}, '', '', '', 0);
  return { parts, cuts };
}

// Of the strings of the arguments, at most this many times the size is read: a string
// past that is cut even if runs of whitespace would have made it short enough to show.
const READ_FACTOR = 8;
// Past this many cut strings, the rest is cut as one block: the question stays cheap
// to build for arguments of many thousands of short strings.
const MAX_STRING_CUTS = 32;

const sum = (values: readonly number[], from = 0) => {
  let total = 0;
  for (let index = from; index < values.length; index += 1) total += values[index]!;
  return total;
};

function leafText(leaf: Leaf): string {
  if (leaf.label !== undefined) return leaf.label;
  const shown = leaf.units.slice(0, leaf.keep).join('');
  const cut = sum(leaf.sources, leaf.keep) + leaf.rest;
  return cut === 0 ? shown : shown + marker(cut);
}

const partText = (part: Part) => ('text' in part ? part.text : leafText(part.leaf));

/** Cuts the longest strings first until the whole fits in `max` characters. */
function fitArguments(parts: Part[], max: number): { text: string; cuts: ArgumentCut[] } {
  const leaves = parts.flatMap((part) => ('leaf' in part ? [part.leaf] : []));
  const lengths = new Map<Leaf, number>(leaves.map((leaf) => [leaf, leafText(leaf).length]));
  let total = parts.reduce(
    (length, part) => length + ('text' in part ? part.text.length : lengths.get(part.leaf)!),
    0,
  );
  for (let round = 0; total > max && round < MAX_STRING_CUTS; round += 1) {
    let longest: Leaf | undefined;
    for (const leaf of leaves) {
      if (leaf.keep > 0 && (longest === undefined || lengths.get(leaf)! > lengths.get(longest)!)) {
        longest = leaf;
      }
    }
    if (longest === undefined) break;
    const before = lengths.get(longest)!;
    const target = before - (total - max) - LONGEST_MARKER;
    let length = 0;
    let keep = 0;
    while (keep < longest.keep && length + longest.units[keep]!.length <= target) {
      length += longest.units[keep]!.length;
      keep += 1;
    }
    longest.keep = Math.min(keep, longest.keep - 1);
    const after = leafText(longest).length;
    lengths.set(longest, after);
    total += after - before;
  }
  const cuts: ArgumentCut[] = leaves
    .filter((leaf) => leaf.keep < leaf.units.length || leaf.rest > 0)
    .map((leaf) => ({
      field: leaf.field || '(arguments)',
      totalChars: sum(leaf.sources) + leaf.rest,
      cutChars: sum(leaf.sources, leaf.keep) + leaf.rest,
    }));
  if (total <= max) return { text: parts.map(partText).join(''), cuts };
  // Even with the longest strings cut, the rest is too long: cut it at a part.
  let text = '';
  let index = 0;
  for (; index < parts.length; index += 1) {
    const next = partText(parts[index]!);
    if (text.length + next.length > max - LONGEST_MARKER) break;
    text += next;
  }
  let rest = 0;
  for (const part of parts.slice(index)) rest += partText(part).length;
  cuts.push({ field: parts[index]?.top || '(arguments)', totalChars: total, cutChars: rest });
  return { text: text + marker(rest), cuts };
}

/**
 * Renders a call's arguments for a person in at most `max` characters (see
 * `renderApprovalQuestion`): the text, and every field that is not shown whole.
 *
 * @param value - the arguments
 * @param max - the most characters of the text
 * @returns the text and the cuts
 * @throws nothing
 */
export function renderArguments(
  value: unknown,
  max: number,
): { text: string; cuts: ArgumentCut[] } {
  const rendered = render(value, READ_FACTOR * max);
  const fitted = fitArguments(rendered.parts, max);
  return { text: fitted.text, cuts: [...rendered.cuts, ...fitted.cuts] };
}
