import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One instance of the official JSON Schema test suite. */
export interface SuiteCase {
  /** `file | group | test`. */
  name: string;
  schema: unknown;
  data: unknown;
  /** The suite's verdict. */
  valid: boolean;
}

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/**
 * Every draft-04 case of the JSON Schema test suite (its npm package
 * `json-schema-test-suite`, required and optional tests).
 */
export function suiteCases(): SuiteCase[] {
  const root = join(
    dirname(createRequire(import.meta.url).resolve('json-schema-test-suite/package.json')),
    'tests',
    'draft4',
  );
  const files: string[] = [];
  for (const entry of readdirSync(root).sort()) {
    const path = join(root, entry);
    if (statSync(path).isDirectory()) {
      for (const inner of readdirSync(path).sort()) files.push(join(path, inner));
    } else files.push(path);
  }
  const cases: SuiteCase[] = [];
  for (const file of files) {
    const groups = JSON.parse(readFileSync(file, 'utf8')) as SuiteGroup[];
    for (const group of groups) {
      for (const test of group.tests) {
        cases.push({
          name: `${file.slice(root.length + 1)} | ${group.description} | ${test.description}`,
          schema: group.schema,
          data: test.data,
          valid: test.valid,
        });
      }
    }
  }
  return cases;
}
