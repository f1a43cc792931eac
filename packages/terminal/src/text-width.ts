/** SGR escape codes (colours, bold): they take no room on the screen. */
const ANSI = /\u001b\[[0-9;]*m/g;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

// East_Asian_Width W and F (Unicode 15.1, EastAsianWidth.txt), merged into ranges. The
// emoji among W are also caught by Emoji_Presentation below.
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x16ff0, 0x16ff1],
  [0x17000, 0x18cd5],
  [0x18d00, 0x18d08],
  [0x1aff0, 0x1b2fb],
  [0x1f200, 0x1f251],
  [0x1f260, 0x1f265],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  let low = 0;
  let high = WIDE.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = WIDE[middle]!;
    if (codePoint < start) high = middle - 1;
    else if (codePoint > end) low = middle + 1;
    else return true;
  }
  return false;
}

/** Code points that print nothing: marks, controls, format characters, joiners, selectors. */
const ZERO_WIDTH = /^[\p{Mark}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;

/** The columns one grapheme cluster takes: 0, 1 or 2. */
function clusterWidth(cluster: string): number {
  const printing = [...cluster].filter((char) => !ZERO_WIDTH.test(char));
  const base = printing[0];
  if (base === undefined) return 0;
  // A pictograph is wide when it shows as an emoji: by default (Emoji_Presentation), or
  // asked for with VS16, or as a ZWJ or skin-tone sequence. `✓` or `©` alone stay narrow,
  // as terminals draw them.
  if (PICTOGRAPHIC.test(base)) {
    if (EMOJI_PRESENTATION.test(base)) return 2;
    if (cluster.includes('\uFE0F') || cluster.includes('\u200D')) return 2;
    if (printing.some((char) => EMOJI_MODIFIER.test(char))) return 2;
    return 1;
  }
  if (REGIONAL_INDICATOR.test(base)) return 2;
  if (EMOJI_PRESENTATION.test(base)) return 2;
  return isWide(base.codePointAt(0)!) ? 2 : 1;
}

/**
 * Removes SGR escape codes (colours, bold) from a text.
 *
 * @param text - a text that may carry escape codes
 * @returns the text without them
 * @throws nothing
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The columns a text takes in a terminal: wide East Asian characters (CJK, fullwidth
 * forms) and emoji count two, combining marks and zero-width characters count zero, a
 * grapheme cluster (`e` plus an accent, a family emoji) counts once; SGR escape codes
 * count nothing. One line is assumed: a line break counts zero.
 *
 * @example
 * ```ts
 * textWidth('日本'); // 4
 * textWidth('e\u0301'); // 1
 * ```
 *
 * @param text - the text, escape codes allowed
 * @returns its width in columns
 * @throws nothing
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(stripAnsi(text))) width += clusterWidth(segment);
  return width;
}

/**
 * Splits a plain text into grapheme clusters, each with its width in columns.
 *
 * @param text - plain text (no escape codes)
 * @returns the clusters in order
 * @throws nothing
 */
export function graphemes(text: string): { cluster: string; width: number }[] {
  return [...segmenter.segment(text)].map(({ segment }) => ({
    cluster: segment,
    width: clusterWidth(segment),
  }));
}
