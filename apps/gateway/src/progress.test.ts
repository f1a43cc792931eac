import type { UpstreamProgressEvent, UpstreamServerStatus } from '@tool-search/mcp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressReporter } from './progress.js';

const status = (overrides: Partial<UpstreamServerStatus>): UpstreamServerStatus => ({
  name: 'filesystem',
  state: 'ready',
  toolCount: 14,
  rejectedTools: [],
  cutTools: [],
  ignoredPins: [],
  heldTools: [],
  reconnectAttempts: 0,
  connectMs: 452,
  ...overrides,
});

const event = (
  kind: UpstreamProgressEvent['kind'],
  overrides: Partial<UpstreamServerStatus> = {},
): UpstreamProgressEvent => ({
  kind,
  server: overrides.name ?? 'filesystem',
  status: status(overrides),
});

function fakeStream(isTTY: boolean) {
  const lines: string[] = [];
  return { lines, stream: { isTTY, write: (text: string) => lines.push(text) } };
}

describe('createProgressReporter', () => {
  it('writes a line per server with its tool count and time on a TTY', () => {
    const { lines, stream } = fakeStream(true);
    const report = createProgressReporter({ stream, color: false });
    report(event('connecting'));
    report(event('ready'));
    report(event('failed', { name: 'github', state: 'failed', error: 'command not found' }));
    report(event('retrying', { name: 'github', state: 'reconnecting' }));
    expect(lines).toEqual([
      '✓ filesystem        14 tools  452 ms\n',
      '✗ github          failed: command not found\n',
      '↻ github          retrying (it was down)\n',
    ]);
  });

  it('shows escape codes from upstream error text and stderr escaped, never acting', () => {
    const { lines, stream } = fakeStream(true);
    const report = createProgressReporter({ stream, color: false });
    report(
      event('failed', {
        name: 'bad\u001b]0;x\u0007',
        state: 'failed',
        error: 'exited; its stderr: \u001b[2J\u009b31m\u202eevil\nnext line',
      }),
    );
    expect(lines).toEqual([
      '✗ bad\\x1b]0;x\\x07 failed: exited; its stderr: \\x1b[2J\\x9b31m\\u202eevil\\nnext line\n',
    ]);
  });

  it('says how many self-pins were ignored, descriptions cut and tools held', () => {
    const { lines, stream } = fakeStream(true);
    const report = createProgressReporter({ stream, color: false });
    report(
      event('ready', {
        ignoredPins: ['a'],
        cutTools: [{ name: 'a', field: 'description', fromChars: 20_000, toChars: 10_000 }],
        heldTools: [{ name: 'b', reason: 'changed', detail: 'held' }],
      }),
    );
    expect(lines).toEqual([
      '✓ filesystem        14 tools  452 ms  1 held for review  1 self-pin ignored  1 description cut\n',
    ]);
  });

  it('writes nothing when the stream is not a TTY', () => {
    const { lines, stream } = fakeStream(false);
    createProgressReporter({ stream })(event('ready'));
    expect(lines).toEqual([]);
  });

  describe('colour', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('colours the marks on a TTY by default', () => {
      vi.stubEnv('NO_COLOR', undefined);
      vi.stubEnv('FORCE_COLOR', undefined);
      const { lines, stream } = fakeStream(true);
      createProgressReporter({ stream })(event('ready'));
      expect(lines[0]).toMatch(/^\u001b\[32m✓\u001b\[39m filesystem/);
    });

    it('follows the one colour rule: no colour with NO_COLOR or FORCE_COLOR=0, colour with FORCE_COLOR into a log file', () => {
      vi.stubEnv('FORCE_COLOR', '0');
      const tty = fakeStream(true);
      createProgressReporter({ stream: tty.stream })(event('ready'));
      expect(tty.lines[0]).toMatch(/^✓ filesystem/);

      vi.stubEnv('FORCE_COLOR', undefined);
      vi.stubEnv('NO_COLOR', '1');
      const plain = fakeStream(true);
      createProgressReporter({ stream: plain.stream })(event('ready'));
      expect(plain.lines[0]).toMatch(/^✓ filesystem/);

      vi.stubEnv('NO_COLOR', undefined);
      vi.stubEnv('FORCE_COLOR', '1');
      const log = fakeStream(false);
      createProgressReporter({ stream: log.stream, always: true })(event('ready'));
      expect(log.lines[0]).toMatch(/^\u001b\[32m✓/);
    });
  });
});
