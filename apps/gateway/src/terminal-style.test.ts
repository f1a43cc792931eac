import { describe, expect, it } from 'vitest';
import { createTerminalStyle, shouldColor } from './terminal-style.js';

describe('shouldColor', () => {
  it('colours a TTY only, never with NO_COLOR or FORCE_COLOR=0, always with FORCE_COLOR=1', () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({}, {})).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: 'false' })).toBe(false);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '' })).toBe(true);
  });

  it('lets NO_COLOR win over FORCE_COLOR and ignores an empty NO_COLOR, as no-color.org says', () => {
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
  });
});

describe('createTerminalStyle', () => {
  it('wraps text in the SGR codes of util.styleText when enabled', () => {
    const style = createTerminalStyle(true);
    expect(style.enabled).toBe(true);
    expect(style.bold('b')).toBe('\u001b[1mb\u001b[22m');
    expect(style.red('r')).toBe('\u001b[31mr\u001b[39m');
    expect(style.dim('d')).toBe('\u001b[2md\u001b[22m');
    expect(style.magenta('m')).toBe('\u001b[35mm\u001b[39m');
  });

  it('returns the text unchanged when disabled', () => {
    const style = createTerminalStyle(false);
    expect(style.enabled).toBe(false);
    expect([style.bold('a'), style.green('b'), style.cyan('c'), style.yellow('d')]).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });
});
