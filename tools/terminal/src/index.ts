/**
 * Terminal text for the gateway app and the repository's tools (eval, bench, load): the
 * display width of a text in columns, truncation and wrapping by that width, and the one
 * table renderer, plain or markdown. Private to the workspace; colours live in
 * `@tool-search/mcp` (`shouldColor`, `createTerminalStyle`), because its progress
 * reporter needs them and a published package cannot import a private tool.
 *
 * @packageDocumentation
 */
export { truncate, wrapText } from './fit-text.js';
export type { Column, TableOptions } from './table.js';
export { renderTable } from './table.js';
export { graphemes, stripAnsi, textWidth } from './text-width.js';
