import type { ToolDefinition } from '@tool-search/core';
import { inspectInputSchema, type SkippedKeyword } from '@tool-search/core/validate';
import { renderTable, type Style, truncate } from './format.js';
import { safeText } from './inspect-review.js';

interface Output {
  write(text: string): unknown;
}

const REASON_WIDTH = 120;

/**
 * The argument-check section of `inspect`: each keyword of a tool's input schema that
 * argument checks leave unchecked (a pattern the linear-time engine cannot run, a
 * draft-04 `exclusiveMaximum: true` without a `maximum`, a keyword a call's check
 * overran its budget on), with its JSON pointer and why, and each schema that cannot
 * be checked at all. Nothing is printed when every schema is checked whole.
 *
 * @param tools - the tools to look at
 * @param out - where to print
 * @param style - colours
 * @returns nothing
 * @throws nothing
 */
export function printArgumentChecks(
  tools: readonly ToolDefinition[],
  out: Output,
  style: Style,
): void {
  const rows: string[][] = [];
  for (const tool of tools) {
    const found = inspectInputSchema(tool.inputSchema);
    const name = safeText(tool.name);
    if (found.status === 'unchecked') {
      rows.push([name, style.yellow('unchecked'), truncate(safeText(found.reason), REASON_WIDTH)]);
      continue;
    }
    for (const skipped of found.skipped) {
      rows.push([
        name,
        `${safeText(skipped.keyword)} at ${safeText(skipped.pointer)}`,
        truncate(safeText(skipped.reason), REASON_WIDTH),
      ]);
    }
  }
  if (rows.length === 0) return;
  out.write(
    `\n${style.bold('argument checks')}: ${rows.length} keywords or schemas are left unchecked (every other keyword is checked)\n`,
  );
  out.write(
    `${renderTable([{ header: 'tool' }, { header: 'left unchecked' }, { header: 'why' }], rows, {
      style,
    }).join('\n')}\n`,
  );
}

/**
 * The log line of `serve` for a schema keyword that argument checks leave unchecked
 * (the gateway tells it once per tool, keyword and pointer).
 *
 * @param skipped - the keyword
 * @returns one line, ending in a newline, with the tool's name made safe to print
 * @throws nothing
 */
export function skippedKeywordLine(skipped: SkippedKeyword): string {
  const tool = skipped.tool === undefined ? 'a tool' : `'${safeText(skipped.tool)}'`;
  return `warning: argument checks of ${tool} leave '${safeText(skipped.keyword)}' at ${safeText(skipped.pointer)} unchecked (${skipped.cause}): ${truncate(safeText(skipped.reason), 300)}\n`;
}
