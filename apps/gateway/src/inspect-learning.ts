import type { LearningExport } from '@tool-search/core';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { formatInt, renderTable, type Style } from './format.js';
import { safeText } from './inspect-review.js';
import { MEMORY_LEARNING_NOTE, sharedStoreSpec, withLearningStore } from './learning-command.js';

interface Output {
  write(text: string): unknown;
}

/** The most terms a tool's row shows (heaviest first). */
const TERMS_SHOWN = 8;

/** The rows of a learned-terms table: profile, tool, terms in all, the heaviest terms. */
export function learnedRows(data: LearningExport): string[][] {
  const rows: string[][] = [];
  for (const [profile, tools] of Object.entries(data.profiles)) {
    for (const [tool, terms] of Object.entries(tools)) {
      const sorted = Object.entries(terms).sort((a, b) => b[1] - a[1]);
      const shown = sorted
        .slice(0, TERMS_SHOWN)
        .map(([term, count]) => `${safeText(term)} ${Number(count.toFixed(2))}`);
      if (sorted.length > TERMS_SHOWN) shown.push('…');
      rows.push([safeText(profile), safeText(tool), formatInt(sorted.length), shown.join(', ')]);
    }
  }
  return rows;
}

/**
 * Prints `inspect`'s learning section: off, or where the learned terms live and, for a
 * Redis store, each tool's learned terms and counts (of one profile, or all).
 *
 * @throws nothing: a store that does not answer is reported as a warning
 */
export async function printLearning(
  config: GatewayConfig,
  options: { profile?: string; store?: string },
  out: Output,
  style: Style,
): Promise<void> {
  out.write(`\n${style.bold('learning')}: `);
  if (config.learning?.enabled !== true) {
    out.write('off (turn it on with "learning": { "enabled": true })\n');
    return;
  }
  const spec = sharedStoreSpec(config, options.store);
  if (spec === undefined) {
    out.write(`on; ${MEMORY_LEARNING_NOTE}\n`);
    return;
  }
  try {
    const data = await withLearningStore(spec, config, (learning) =>
      Promise.resolve(learning.export(options.profile)),
    );
    const rows = learnedRows(data);
    out.write(`on; ${formatInt(rows.length)} tools have learned terms\n`);
    if (rows.length === 0) return;
    const table = renderTable(
      [
        { header: 'profile' },
        { header: 'tool' },
        { header: 'terms', align: 'right' },
        { header: 'heaviest terms (count)', maxWidth: 72 },
      ],
      rows,
      { style },
    );
    out.write(`${table.join('\n')}\n`);
  } catch (error) {
    out.write(
      `on; ${style.yellow('warning')}: the learned terms could not be read: ${safeText(error instanceof Error ? error.message : String(error))}\n`,
    );
  }
}
