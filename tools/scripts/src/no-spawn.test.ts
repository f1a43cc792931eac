import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The fast tier's guard (tools/vitest/no-spawn.ts, a setup file) seen working: loaded
// here by path, as the vitest configs load it.
const guardUrl = pathToFileURL(fileURLToPath(new URL('../../vitest/no-spawn.ts', import.meta.url)));
const guard = (await import(guardUrl.href)) as {
  NO_SPAWN_MESSAGE: string;
  takeSpawnAttempts(): string[];
};

describe('the fast tier guard', () => {
  it('makes every way of starting a child process throw, through require and import alike', async () => {
    const { createRequire } = await import('node:module');
    const required = createRequire(import.meta.url)('node:child_process') as Record<
      string,
      (command: string) => unknown
    >;
    const imported = (await import('node:child_process')) as unknown as Record<
      string,
      (command: string) => unknown
    >;
    const names = ['spawn', 'fork', 'exec', 'execFile', 'spawnSync', 'execSync', 'execFileSync'];
    for (const name of names) {
      expect(() => required[name]!(process.execPath)).toThrow(guard.NO_SPAWN_MESSAGE);
      expect(() => imported[name]!(process.execPath)).toThrow(guard.NO_SPAWN_MESSAGE);
    }
    // Each attempt is remembered, so that a test which catches the error still fails its
    // file (read here, which forgets them: this file must pass).
    expect(guard.takeSpawnAttempts()).toHaveLength(names.length * 2);
    expect(guard.takeSpawnAttempts()).toEqual([]);
  });
});
