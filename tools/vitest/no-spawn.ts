// The fast tier's setup file: a test that starts a child process fails, naming what it
// started, so that a process start never hides in the fast tier. Every way Node starts
// one goes through these functions (cross-spawn and execa call them too).
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;

const STARTS = [
  'spawn',
  'spawnSync',
  'fork',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
] as const;

for (const name of STARTS) {
  childProcess[name] = (command: unknown) => {
    throw new Error(
      `fast tier: a test may not start a child process (${name} ${String(command)}); ` +
        'talk to an in-process server, or name the file *.int.test.ts',
    );
  };
}
syncBuiltinESMExports();
