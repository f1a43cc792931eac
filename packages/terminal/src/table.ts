import { truncate } from './fit-text.js';
import { stripAnsi, textWidth } from './text-width.js';

/** One column of {@link renderTable}. */
export interface Column {
  /** The header cell. */
  header: string;
  /** @defaultValue 'left' */
  align?: 'left' | 'right';
  /** Cut longer plain cells to this many columns, ending with an ellipsis. */
  maxWidth?: number;
}

/** Options of {@link renderTable}. */
export interface TableOptions {
  /**
   * `plain`: aligned columns two spaces apart under a `─` rule, for a terminal.
   * `markdown`: a GitHub table (`| a | b |` with `:---`/`---:` alignment), padded so
   * that it reads aligned as text too.
   * @defaultValue 'plain'
   */
  format?: 'plain' | 'markdown';
  /** Spaces before every plain line. @defaultValue 0 */
  indent?: number;
  /** Whether a plain table draws the `─` rule under its header. @defaultValue true */
  rule?: boolean;
  /** Styles the plain header line, e.g. a colour helper's `bold`. @defaultValue no style */
  style?: { bold(text: string): string };
}

function pad(cell: string, width: number, align: Column['align']): string {
  const gap = ' '.repeat(Math.max(0, width - textWidth(cell)));
  return align === 'right' ? gap + cell : cell + gap;
}

/**
 * Renders rows under a header, every column as wide as its widest cell in terminal
 * columns ({@link textWidth}: CJK and emoji count two, escape codes nothing), so that
 * tables stay aligned whatever the text. Cells may carry escape codes; only plain cells
 * are cut to `maxWidth`. Plain lines carry no trailing spaces.
 *
 * @example
 * ```ts
 * renderTable([{ header: 'tool' }, { header: 'tokens', align: 'right' }], [['search', '160']]);
 * // ['tool    tokens', '──────  ──────', 'search     160']
 * ```
 *
 * @param columns - the columns
 * @param rows - the cells, one array a row; a missing cell is empty
 * @param options - the format, indent, rule and header style
 * @param options.format - `plain` or `markdown` @defaultValue 'plain'
 * @param options.indent - spaces before every plain line @defaultValue 0
 * @param options.rule - draw the plain rule @defaultValue true
 * @param options.style - styles the plain header line @defaultValue no style
 * @returns the lines, without newlines
 * @throws nothing
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string[] {
  const markdown = options.format === 'markdown';
  // A `|` inside a markdown cell would end the cell.
  const escapeCell = (cell: string) => (markdown ? cell.replace(/\|/g, '\\|') : cell);
  const headers = columns.map((column) => escapeCell(column.header));
  const cells = rows.map((row) =>
    columns.map((column, index) => {
      const cell = row[index] ?? '';
      const plain = stripAnsi(cell) === cell;
      return escapeCell(
        column.maxWidth !== undefined && plain ? truncate(cell, column.maxWidth) : cell,
      );
    }),
  );
  const widths = columns.map((_, index) =>
    Math.max(textWidth(headers[index]!), ...cells.map((row) => textWidth(row[index]!))),
  );
  if (markdown) {
    const line = (row: readonly string[]) =>
      `| ${row.map((cell, index) => pad(cell, widths[index]!, columns[index]!.align)).join(' | ')} |`;
    const rule = widths.map((width, index) =>
      columns[index]!.align === 'right' ? `${'-'.repeat(width + 1)}:` : `:${'-'.repeat(width + 1)}`,
    );
    return [line(headers), `|${rule.join('|')}|`, ...cells.map(line)];
  }
  const indent = ' '.repeat(options.indent ?? 0);
  const line = (row: readonly string[]) =>
    (
      indent + row.map((cell, index) => pad(cell, widths[index]!, columns[index]!.align)).join('  ')
    ).trimEnd();
  const bold = options.style?.bold ?? ((text: string) => text);
  return [
    bold(line(headers)),
    ...(options.rule === false
      ? []
      : [indent + widths.map((width) => '─'.repeat(width)).join('  ')]),
    ...cells.map(line),
  ];
}
