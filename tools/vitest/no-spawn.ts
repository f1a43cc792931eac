// The fast tier's guard: a vitest setup file (`setupFiles: ['<repo>/tools/vitest/no-spawn.ts']`)
// that makes every way of starting a child process throw. A test that needs a process (stdio
// framing, a crash, the CLI, a service) belongs in the integration tier: `*.int.test.ts`.
// Each attempt is also remembered and fails the file after its tests, so that a test which
// expects a start to fail (a missing command) cannot pass by catching the guard's error.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll } from 'vitest';

/** The message of the guard's error. */
export const NO_SPAWN_MESSAGE =
  'fast tier: a test may not start a child process (name it *.int.test.ts)';

const GUARDED = [
  'spawn',
  'fork',
  'exec',
  'execFile',
  'spawnSync',
  'execSync',
  'execFileSync',
] as const;

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;
const attempts: string[] = [];

for (const name of GUARDED) {
  childProcess[name] = (command: unknown) => {
    attempts.push(`${name}(${String(command)})`);
    throw new Error(NO_SPAWN_MESSAGE);
  };
}
// `import { spawn } from 'node:child_process'` reads the ESM facade: bring it in line.
syncBuiltinESMExports();

/** The attempts this file made so far, forgotten once read (for the guard's own test). */
export function takeSpawnAttempts(): string[] {
  return attempts.splice(0);
}

afterAll(() => {
  const seen = takeSpawnAttempts();
  if (seen.length === 0) return;
  throw new Error(`${NO_SPAWN_MESSAGE}; this file tried: ${seen.join(', ')}`);
});
