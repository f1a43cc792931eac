import { textWidth } from '@tool-search/terminal';
import { describe, expect, it } from 'vitest';
import {
  FlagError,
  type FlagTable,
  parseArgsOptions,
  readFlags,
  renderFlagHelp,
  synopsisOf,
} from './flag-table.js';

const table = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description: 'the file',
  },
  {
    name: 'mode',
    key: 'mode',
    kind: 'choice',
    choices: ['a', 'b', 'c'],
    default: 'a',
    description: 'the mode, {default} unless given',
  },
  {
    name: 'count',
    key: 'count',
    kind: 'integer',
    placeholder: 'N',
    min: 1,
    max: 9,
    documentedDefault: 3,
    description: 'how many (default: {default})',
  },
  {
    name: 'key',
    key: 'key',
    kind: 'text',
    placeholder: 'K',
    env: 'FLAG_TABLE_KEY',
    description: 'the key (default: {default})',
  },
  {
    name: 'tag',
    key: 'tags',
    kind: 'list',
    repeatable: true,
    placeholder: 'T',
    item: (item: string) => {
      if (item.includes(' ')) throw new FlagError(`--tag must be one word, got '${item}'.`);
      return item.toLowerCase();
    },
    description: 'a tag; repeatable',
  },
  {
    name: 'a-very-long-flag-name',
    key: 'long',
    kind: 'boolean',
    description: '表示幅を 数える 説明文は ここで 折り返される 説明文です',
  },
] as const satisfies FlagTable;

describe('parseArgsOptions', () => {
  it('makes a repeatable list a multiple string and a boolean a boolean', () => {
    expect(parseArgsOptions(table)).toEqual({
      config: { type: 'string' },
      mode: { type: 'string' },
      count: { type: 'string' },
      key: { type: 'string' },
      tag: { type: 'string', multiple: true },
      'a-very-long-flag-name': { type: 'boolean' },
    });
  });
});

describe('readFlags', () => {
  it('fills in defaults and the environment, and leaves out absent flags without one', () => {
    const options = readFlags('run', table, { config: 'c.json' }, { FLAG_TABLE_KEY: 'k' });
    expect(options).toEqual({ config: 'c.json', mode: 'a', key: 'k' });
    expect(Object.hasOwn(options, 'count')).toBe(false);
  });

  it('joins repeated and comma-separated list items, each checked by the table', () => {
    expect(readFlags('run', table, { config: 'c', tag: ['One, two', 'THREE'] }, {}).tags).toEqual([
      'one',
      'two',
      'three',
    ]);
    expect(() => readFlags('run', table, { config: 'c', tag: ['two words'] }, {})).toThrow(
      "--tag must be one word, got 'two words'.",
    );
  });

  it.each([
    [{}, 'run needs --config <file>.'],
    [{ config: 'c', key: ' ' }, '--key must not be empty.'],
    [{ config: 'c', mode: 'd' }, "--mode must be 'a', 'b' or 'c', got 'd'."],
    [{ config: 'c', count: '10' }, '--count must be between 1 and 9, got 10.'],
    [{ config: 'c', count: '-1' }, "--count must be a whole number, got '-1'."],
  ])('refuses %j with the message %j', (raw, message) => {
    expect(() => readFlags('run', table, raw, {})).toThrow(FlagError);
    expect(() => readFlags('run', table, raw, {})).toThrow(message);
  });
});

describe('renderFlagHelp', () => {
  const help = renderFlagHelp(table, 40);

  it('aligns the descriptions past the widest label and fills in the defaults', () => {
    expect(help).toContain('  --config <file>  the file');
    expect(help).toContain('  --mode a|b|c     the mode, a unless');
    expect(help).toContain('  --count N        how many (default: 3)');
    expect(help).toContain('  --key K          the key (default:');
    expect(help).toContain('                   $FLAG_TABLE_KEY)');
  });

  it('puts a label wider than the column on its own line, and wraps by terminal width', () => {
    const at = help.indexOf('  --a-very-long-flag-name');
    expect(at).toBeGreaterThan(-1);
    const below = help.slice(at + 1);
    expect(below.length).toBeGreaterThan(1);
    for (const line of below) {
      expect(line.startsWith(' '.repeat(19))).toBe(true);
      expect(textWidth(line)).toBeLessThanOrEqual(40);
    }
  });
});

describe('synopsisOf', () => {
  it('writes required flags bare, others in brackets, repeatable ones with ...', () => {
    expect(synopsisOf(table)).toEqual([
      '--config <file>',
      '[--mode a|b|c]',
      '[--count N]',
      '[--key K]',
      '[--tag T]...',
      '[--a-very-long-flag-name]',
    ]);
  });
});
