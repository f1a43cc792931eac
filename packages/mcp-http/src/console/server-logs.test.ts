import { describe, expect, it } from 'vitest';
import { createServerLogs, SERVER_LOG_LINES } from './server-logs.js';

describe('createServerLogs', () => {
  it('keeps the last lines of each server only, oldest first', () => {
    const logs = createServerLogs();
    for (let line = 0; line < SERVER_LOG_LINES + 50; line++) logs.stderr('a', `line ${line}\n`);
    logs.stderr('b', 'other\n');
    const kept = logs.lines('a');
    expect(kept).toHaveLength(SERVER_LOG_LINES);
    expect(kept[0]!.text).toBe('line 50');
    expect(kept.at(-1)!.text).toBe(`line ${SERVER_LOG_LINES + 49}`);
    expect(logs.lines('b').map((line) => line.text)).toEqual(['other']);
    logs.forget('a');
    expect(logs.lines('a')).toEqual([]);
  });

  it('shows escapes escaped, never keeps a secret, and cuts a huge line', () => {
    const logs = createServerLogs(() => ['configured-secret-value']);
    logs.stderr(
      's',
      '\u001b[2J\u001b]0;title\u0007 configured-secret-value token=abcdef123 Authorization: Bearer zyxwvu987654 "apiKey": "k-123456"\n',
    );
    logs.stderr('s', `${'x'.repeat(5_000)}\n`);
    const [first, huge] = logs.lines('s');
    expect(first!.text).not.toContain('\u001b');
    expect(first!.text).toContain('\\x1b[2J');
    for (const secret of ['configured-secret-value', 'abcdef123', 'zyxwvu987654', 'k-123456']) {
      expect(first!.text).not.toContain(secret);
    }
    expect(first!.text).toContain('[redacted]');
    expect(huge!.text.length).toBeLessThan(2_100);
    expect(huge!.text).toContain('[…cut]');
    expect(first!.time).toMatch(/Z$/);
  });
});
