/** Terminal styling that turns itself off where colour does not belong. */
export interface Style {
  /** Whether escape codes are written. */
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/**
 * Whether to colour a stream: never with `NO_COLOR` set (https://no-color.org) or
 * `FORCE_COLOR=0`; always with another `FORCE_COLOR`; otherwise only on a TTY.
 *
 * @param stream - the stream written to
 * @param env - the environment @defaultValue process.env
 * @returns true to colour
 */
export function shouldColor(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}

/**
 * Creates a {@link Style} for a stream.
 *
 * @param enabled - whether to write escape codes, e.g. {@link shouldColor}(process.stdout)
 * @returns the style
 */
export function createStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** The printed width of a text (escape codes excluded). */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/** One column of {@link renderTable}. */
export interface Column {
  header: string;
  /** @defaultValue 'left' */
  align?: 'left' | 'right';
  /** Cut longer cells to this many characters, ending with an ellipsis. */
  maxWidth?: number;
}

/**
 * Shortens a plain text to `width` characters, ending with `…` when cut, on one line.
 *
 * @param text - plain text (no escape codes)
 * @param width - the maximum length
 * @returns the text, cut when needed
 */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= width) return flat;
  return `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * Renders aligned rows under a header and a rule. Cells may carry escape codes; only
 * plain cells are truncated to `maxWidth`.
 *
 * @param columns - the columns
 * @param rows - the cells, one array a row
 * @param options.indent - spaces before every line @defaultValue 2
 * @param options.style - styles the header @defaultValue no colour
 * @returns the lines, without trailing newlines
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: { indent?: number; style?: Style } = {},
): string[] {
  const style = options.style ?? createStyle(false);
  const pad = ' '.repeat(options.indent ?? 2);
  const cells = rows.map((row) =>
    columns.map((column, index) => {
      const cell = row[index] ?? '';
      return column.maxWidth !== undefined && visibleLength(cell) === cell.length
        ? truncate(cell, column.maxWidth)
        : cell;
    }),
  );
  const widths = columns.map((column, index) =>
    Math.max(visibleLength(column.header), ...cells.map((row) => visibleLength(row[index] ?? ''))),
  );
  const line = (row: readonly string[]) =>
    pad +
    row
      .map((cell, index) => {
        const gap = ' '.repeat(Math.max(0, (widths[index] ?? 0) - visibleLength(cell)));
        if (columns[index]?.align === 'right') return gap + cell;
        return index === row.length - 1 ? cell : cell + gap;
      })
      .join('  ');
  return [
    style.bold(line(columns.map((column) => column.header))),
    pad + widths.map((width) => '─'.repeat(width)).join('  '),
    ...cells.map(line),
  ];
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

/**
 * Wraps plain text at word boundaries.
 *
 * @param text - plain text (no escape codes); its own line breaks are kept
 * @param width - the longest line
 * @param maxLines - lines kept; the last one ends with `…` when text was dropped
 * @returns the lines
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
      else if (line.length + 1 + word.length <= width) line += ` ${word}`;
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
