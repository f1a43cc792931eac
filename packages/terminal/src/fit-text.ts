import { graphemes, textWidth } from './text-width.js';

/**
 * Shortens a plain text to `width` columns on one line, ending with `…` when cut. Runs
 * of white space (line breaks too) become one space; wide characters count two, and a
 * grapheme cluster is never split.
 *
 * @param text - plain text (no escape codes)
 * @param width - the most columns
 * @returns the text, cut when needed
 * @throws nothing
 */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (textWidth(flat) <= width) return flat;
  const room = Math.max(0, width - 1);
  let used = 0;
  let kept = '';
  for (const { cluster, width: columns } of graphemes(flat)) {
    if (used + columns > room) break;
    kept += cluster;
    used += columns;
  }
  return `${kept}…`;
}

/**
 * Wraps plain text at word boundaries, measuring in terminal columns.
 *
 * @param text - plain text (no escape codes); its own line breaks are kept
 * @param width - the widest line, in columns
 * @param maxLines - lines kept; the last one ends with `…` when text was dropped
 *   @defaultValue no limit
 * @returns the lines
 * @throws nothing
 */
export function wrapText(
  text: string,
  width: number,
  maxLines = Number.POSITIVE_INFINITY,
): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line === '') line = word;
      else if (textWidth(line) + 1 + textWidth(word) <= width) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    if (line !== '') lines.push(line);
  }
  const cut = lines.map((line) => truncate(line, width));
  if (cut.length <= maxLines) return cut;
  const kept = cut.slice(0, maxLines);
  kept[maxLines - 1] = truncate(`${kept[maxLines - 1]} …`, width);
  return kept;
}
