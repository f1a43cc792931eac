// The build step of `pnpm demo` is never silent: a fake child and clock, no process.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { runWithProgress } from '../scripts/build-progress.mjs';

describe('runWithProgress (the build step of pnpm demo)', () => {
  it('says that it builds, how long so far while it runs, and how long it took', async () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const child = new EventEmitter();
      let clock = 0;
      const done = runWithProgress({
        command: 'pnpm',
        args: ['exec', 'turbo', 'run', 'build'],
        label: 'Building the gateway',
        out: { write: (text: string) => lines.push(text) },
        everyMs: 10_000,
        spawnChild: () => child as never,
        now: () => clock,
      });
      for (let tick = 0; tick < 8; tick++) {
        clock += 10_000;
        vi.advanceTimersByTime(10_000);
      }
      clock += 2_000;
      child.emit('exit', 0);
      expect(await done).toBe(0);
      expect(lines[0]).toBe('Building the gateway...\n');
      expect(lines.filter((line) => line.startsWith('  still building'))).toHaveLength(8);
      expect(lines).toContain('  still building (80 s)\n');
      expect(lines.at(-1)).toBe('Built in 82 s.\n');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a failed build with its exit code, and one that cannot start', async () => {
    const lines: string[] = [];
    const failing = new EventEmitter();
    const failed = runWithProgress({
      command: 'pnpm',
      label: 'Building',
      out: { write: (text: string) => lines.push(text) },
      spawnChild: () => failing as never,
    });
    failing.emit('exit', 2);
    expect(await failed).toBe(2);
    expect(lines.at(-1)).toBe('The build failed (exit 2).\n');
    const missing = new EventEmitter();
    const unstarted = runWithProgress({
      command: 'nope',
      label: 'Building',
      out: { write: (text: string) => lines.push(text) },
      spawnChild: () => missing as never,
    });
    missing.emit('error', new Error('spawn nope ENOENT'));
    expect(await unstarted).toBe(1);
    expect(lines).toContain('Could not start nope: spawn nope ENOENT\n');
  });
});
