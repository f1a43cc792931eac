#!/usr/bin/env node
// The type check of every package runs on TypeScript 7, the native compiler: the same
// checker in a fraction of the time CI spent on it. Builds, declarations and the docs
// (typedoc 0.28 takes TypeScript up to 6) stay on the workspace's TypeScript 5.9, whose
// settings in base.json both accept.
// Usage: node ../../tools/tsconfig/tsc7.mjs -p tsconfig.test.json
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const launcher = join(dirname(require.resolve('typescript7/package.json')), 'bin', 'tsc');
const result = spawnSync(process.execPath, [launcher, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (result.error) throw result.error;
process.exit(result.status ?? 1);
