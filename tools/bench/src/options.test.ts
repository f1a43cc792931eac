import { describe, expect, it } from 'vitest';
import { ALL_PEERS, DEFAULT_OPTIONS, parseOptions, UsageError } from './options.js';

function usageError(argv: readonly string[]): string {
  try {
    parseOptions(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`parseOptions(${JSON.stringify(argv)}) did not throw`);
}

describe('parseOptions', () => {
  it('returns the defaults for an empty command line', () => {
    expect(parseOptions([])).toEqual(DEFAULT_OPTIONS);
  });

  it('reads every flag, as `--flag value` and as `--flag=value`', () => {
    const options = parseOptions([
      '--sizes',
      '100, 1_000',
      '--iterations=7',
      '--warmup',
      '0',
      '--budget-ms',
      '250',
      '--min-samples=2',
      '--rankers',
      'spec,default,spec',
      '--peers=orama',
      '--data',
      '/tmp/data',
      '--seed',
      '42',
      '--assembly',
      'core',
      '--rounds=1000',
      '--settle-ms',
      '40',
      '--json',
    ]);
    expect(options).toEqual({
      sizes: [100, 1_000],
      iterations: 7,
      warmup: 0,
      budgetMs: 250,
      minSamples: 2,
      rankers: ['spec', 'default'],
      peers: ['orama'],
      data: '/tmp/data',
      seed: 42,
      assembly: 'core',
      rounds: 1_000,
      settleMs: 40,
      json: true,
      gateway: false,
    });
  });

  it('takes auto or a number of milliseconds for the idle time after a collection', () => {
    expect(parseOptions([])).toMatchObject({ settleMs: 'auto' });
    expect(parseOptions(['--settle-ms', 'auto'])).toMatchObject({ settleMs: 'auto' });
    expect(parseOptions(['--settle-ms=0'])).toMatchObject({ settleMs: 0 });
    expect(usageError(['--settle-ms', 'soon'])).toContain('--settle-ms');
    expect(usageError(['--settle-ms', '-5'])).toContain('--settle-ms');
  });

  it('skips a `--` separator, lets the last of a repeated flag win and caps min-samples at iterations', () => {
    const options = parseOptions([
      '--',
      '--iterations',
      '5',
      '--iterations',
      '2',
      '--peers',
      'none',
    ]);
    expect(options).toMatchObject({ iterations: 2, minSamples: 2, peers: [] });
  });

  it('answers help for --help or -h wherever it stands', () => {
    expect(parseOptions(['--help'])).toBe('help');
    expect(parseOptions(['--sizes', '100', '-h'])).toBe('help');
  });

  it('rejects an unknown option by name', () => {
    expect(usageError(['--frobnicate'])).toBe("Unknown option '--frobnicate'.");
    expect(usageError(['--frobnicate=1'])).toBe("Unknown option '--frobnicate'.");
  });

  it('rejects a positional argument or a short flag it does not know', () => {
    expect(usageError(['100'])).toBe("Unexpected argument '100'.");
    expect(usageError(['-x'])).toBe("Unexpected argument '-x'.");
  });

  it('rejects a value flag without its value', () => {
    expect(usageError(['--sizes'])).toBe('--sizes expects a value.');
    expect(usageError(['--json', '--data'])).toBe('--data expects a value.');
  });

  it('takes the next argument as the value even when it looks like a flag', () => {
    expect(usageError(['--sizes', '--json'])).toBe(
      "--sizes expects a positive integer, got '--json'.",
    );
    expect(parseOptions(['--data', '--json'])).toMatchObject({ data: '--json', json: false });
  });

  it('rejects bad numbers with the flag and the value', () => {
    expect(usageError(['--sizes', '100,0'])).toBe("--sizes expects a positive integer, got '0'.");
    expect(usageError(['--iterations', '1.5'])).toBe(
      "--iterations expects a positive integer, got '1.5'.",
    );
    expect(usageError(['--warmup=-1'])).toBe("--warmup expects an integer of 0 or more, got '-1'.");
    expect(usageError(['--budget-ms', 'soon'])).toBe(
      "--budget-ms expects an integer of 0 or more, got 'soon'.",
    );
    expect(usageError(['--min-samples', '0'])).toBe(
      "--min-samples expects a positive integer, got '0'.",
    );
    expect(usageError(['--seed', 'x'])).toBe("--seed expects an integer of 0 or more, got 'x'.");
  });

  it('rejects unknown rankers, peers and assembly modes, and an empty ranker list', () => {
    expect(usageError(['--rankers', 'bm42'])).toBe(
      "--rankers: unknown 'bm42'. Use any of default, spec.",
    );
    expect(usageError(['--rankers', 'none'])).toBe('--rankers needs at least one ranker.');
    expect(usageError(['--peers', 'lunr'])).toBe(
      `--peers: unknown 'lunr'. Use any of ${ALL_PEERS.join(', ')}.`,
    );
    expect(usageError(['--assembly', 'fast'])).toBe(
      "--assembly: use auto, bridge or core, not 'fast'.",
    );
  });

  it('stops at the first error in command-line order', () => {
    expect(usageError(['--seed', 'x', '--frobnicate'])).toBe(
      "--seed expects an integer of 0 or more, got 'x'.",
    );
    expect(usageError(['--frobnicate', '--help'])).toBe("Unknown option '--frobnicate'.");
  });

  it('rejects a value given to a switch', () => {
    expect(usageError(['--json=yes'])).toBe("--json takes no value, got 'yes'.");
  });
});

describe('parseOptions --gateway', () => {
  it('turns the gateway benchmark on without touching --json', () => {
    expect(parseOptions(['--gateway'])).toMatchObject({ gateway: true, json: false });
    expect(parseOptions(['--gateway', '--json'])).toMatchObject({ gateway: true, json: true });
    expect(parseOptions([])).toMatchObject({ gateway: false });
    expect(() => parseOptions(['--gateway=yes'])).toThrowError(/takes no value/);
  });
});
