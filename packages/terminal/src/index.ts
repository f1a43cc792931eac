/**
 * Terminal text for the gateway (`@tool-search/gateway`) and the repository's tools (eval,
 * bench, load): the display width of a text in columns, truncation and wrapping by that
 * width, and the one table renderer, plain or markdown. Published because the gateway,
 * a published app, depends on it; colours live in the gateway, beside the progress
 * reporter that needs them.
 *
 * @packageDocumentation
 */
export { truncate, wrapText } from './fit-text.js';
export type { Column, TableOptions } from './table.js';
export { renderTable } from './table.js';
export { graphemes, stripAnsi, textWidth } from './text-width.js';
