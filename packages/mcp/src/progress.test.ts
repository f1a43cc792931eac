import { describe, expect, it } from 'vitest';
import { createProgressReporter } from './progress.js';
import type { UpstreamProgressEvent, UpstreamServerStatus } from './upstream-pool.js';

const status = (overrides: Partial<UpstreamServerStatus>): UpstreamServerStatus => ({
  name: 'filesystem',
  state: 'ready',
  toolCount: 14,
  rejectedTools: [],
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

  it('writes nothing when the stream is not a TTY', () => {
    const { lines, stream } = fakeStream(false);
    createProgressReporter({ stream })(event('ready'));
    expect(lines).toEqual([]);
  });
});
