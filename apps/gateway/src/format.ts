import {
  type Column,
  renderTable as renderAnyTable,
  type TableOptions,
  textWidth,
  truncate,
  wrapText,
} from '@tool-search/terminal';
import {
  createTerminalStyle,
  shouldColor as styleShouldColor,
  type TerminalStyle,
} from './terminal-style.js';

// The app's terminal output goes through two modules: colours and their
// NO_COLOR/FORCE_COLOR rule from terminal-style.ts (the progress reporter uses the same
// rule), widths and tables from @tool-search/terminal. This file keeps the app's names.

export type { Column };
export { truncate, wrapText };

/** Terminal styling that turns itself off where colour does not belong. */
export type Style = TerminalStyle;

/** Whether to colour a stream: see `shouldColor` in terminal-style.ts. */
export const shouldColor = styleShouldColor;

/** Creates a {@link Style}: see `createTerminalStyle` in terminal-style.ts. */
export const createStyle = createTerminalStyle;

/**
 * The printed width of a text in terminal columns (escape codes excluded; CJK and emoji
 * count two, combining marks none).
 *
 * @param text - the text
 * @returns its width
 * @throws nothing
 */
export function visibleLength(text: string): number {
  return textWidth(text);
}

/**
 * Renders an aligned plain table, indented by two spaces as the app prints them.
 *
 * @param columns - the columns
 * @param rows - the cells, one array a row
 * @param options.indent - spaces before every line @defaultValue 2
 * @param options.style - styles the header @defaultValue no colour
 * @returns the lines, without trailing newlines
 * @throws nothing
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: Pick<TableOptions, 'indent' | 'style'> = {},
): string[] {
  return renderAnyTable(columns, rows, { indent: 2, ...options });
}

/** `12,345` */
export function formatInt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** `12.3%` of a whole. */
export function formatPct(part: number, whole: number): string {
  if (whole <= 0) return '—';
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** `32k`, `128k`, `1M` */
export function formatWindow(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 1_000_000 === 0) return `${tokens / 1_000_000}M`;
  if (tokens >= 1_000 && tokens % 1_000 === 0) return `${tokens / 1_000}k`;
  return formatInt(tokens);
}
