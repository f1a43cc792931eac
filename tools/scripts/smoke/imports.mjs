// Imports every entry point listed in entries.json (written by check-packages.ts) except
// the ./testing subpaths, which need vitest's runner (see testing.test.mjs).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const entries = JSON.parse(await readFile(new URL('../entries.json', import.meta.url), 'utf8'));
for (const specifier of entries) {
  if (specifier.endsWith('/testing')) continue;
  const namespace = await import(specifier);
  const names = Object.keys(namespace);
  assert.ok(names.length > 0, `${specifier} exports nothing`);
  console.log(`  ok   import ${specifier}: ${names.length} exports`);
}
