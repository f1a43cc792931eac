/**
 * The code block of packages/terminal/README.md (sync:docs writes the `readme` region
 * into it): display widths and a table.
 */
// #region readme
import { renderTable, textWidth } from '@tool-search/terminal';

console.log(textWidth('検索 🔍')); // 7: CJK and emoji take two columns
const lines = renderTable(
  [{ header: 'tool' }, { header: 'tokens', align: 'right' }],
  [
    ['検索', '160'],
    ['read_text_file', '1,234'],
  ],
  { format: 'plain' }, // or 'markdown'
);
console.log(lines.join('\n'));

// #endregion readme

import { strict as assert } from 'node:assert';

assert.equal(textWidth('検索 🔍'), 7);
// The last column is right-aligned: every line is as wide as the others, in columns.
assert.equal(new Set(lines.map((line) => textWidth(line))).size, 1);
assert.ok(lines.some((line) => line.includes('read_text_file') && line.includes('1,234')));
