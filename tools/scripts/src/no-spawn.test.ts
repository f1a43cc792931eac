// The fast tier's guard (tools/vitest/no-spawn.ts) is what proves the tier starts no
// process: this file loads it (whatever the tier) and sees every way to start one refused.
import * as childProcess from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_SPAWN_SETUP } from '../../vitest/tiers.mjs';

await import(pathToFileURL(NO_SPAWN_SETUP).href);

describe('the fast tier guard', () => {
  it.each([
    ['spawn', () => childProcess.spawn(process.execPath, ['-v'])],
    ['spawnSync', () => childProcess.spawnSync(process.execPath, ['-v'])],
    ['fork', () => childProcess.fork('-v')],
    ['exec', () => childProcess.exec('true')],
    ['execSync', () => childProcess.execSync('true')],
    ['execFile', () => childProcess.execFile(process.execPath, ['-v'])],
    ['execFileSync', () => childProcess.execFileSync(process.execPath, ['-v'])],
  ])('refuses %s, naming the tier and what to do', (_name, start) => {
    expect(start).toThrow(/fast tier: a test may not start a child process.*\*\.int\.test\.ts/);
  });

  it('reaches what a library calls through require (cross-spawn, the MCP SDK)', async () => {
    const { createRequire } = await import('node:module');
    const required = createRequire(import.meta.url)('node:child_process') as typeof childProcess;
    expect(() => required.spawn(process.execPath, ['-v'])).toThrow(/fast tier/);
  });
});
