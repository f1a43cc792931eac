import { renderTable } from '@tool-search/terminal';

/**
 * A plain text table: a title, a header row, a rule, the rows; numbers right-aligned.
 *
 * @param title - the line above the table
 * @param header - the column names
 * @param rows - the cells, as text
 * @returns the table's lines joined with newlines
 * @throws nothing
 */
export function formatTable(title: string, header: string[], rows: string[][]): string {
  const columns = header.map((cell, column) => ({
    header: cell,
    align:
      rows.length > 0 && rows.every((row) => /^[-\d.,% ]*(ms|MB|\/s)?$/.test(row[column] ?? ''))
        ? ('right' as const)
        : ('left' as const),
  }));
  return [title, ...renderTable(columns, rows)].join('\n');
}

/**
 * Milliseconds for a table.
 *
 * @param ms - a duration
 * @returns e.g. `12.3 ms`, or `-` for NaN
 * @throws nothing
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

/**
 * Bytes as megabytes for a table.
 *
 * @param bytes - a size, or undefined
 * @returns e.g. `84.2 MB`, or `-`
 * @throws nothing
 */
export function formatMb(bytes: number | undefined): string {
  return bytes === undefined ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
