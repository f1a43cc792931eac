import { describe, expect, it } from 'vitest';
import { createCheckReporter } from './check-reporter.js';

function capture() {
  const lines: string[] = [];
  return {
    lines,
    output: {
      log: (text: string) => lines.push(`out:${text}`),
      error: (text: string) => lines.push(`err:${text}`),
    },
  };
}

describe('createCheckReporter', () => {
  it('prints ok, note and section lines, and an all-passed summary with exit code 0', () => {
    const { lines, output } = capture();
    const reporter = createCheckReporter('site', { output });
    reporter.step('pages');
    reporter.pass('index renders');
    reporter.note('core: source maps point at src/');
    expect(reporter.summarize()).toBe(0);
    expect(lines).toEqual([
      'out:\n--- pages',
      'out:  ok   index renders',
      'out:  note core: source maps point at src/',
      'out:\nsite check: all passed',
    ]);
  });

  it('records failures on stderr and counts them in the summary with exit code 1', () => {
    const { lines, output } = capture();
    const reporter = createCheckReporter('changesets', { output });
    reporter.fail('a.md: no front matter');
    reporter.pass('b.md');
    expect(reporter.failures).toEqual(['a.md: no front matter']);
    expect(reporter.summarize()).toBe(1);
    expect(lines).toEqual([
      'err:  FAIL a.md: no front matter',
      'out:  ok   b.md',
      'err:\nchangesets check: 1 failure(s)',
    ]);
  });

  it('lists the first line of every failure when asked', () => {
    const { lines, output } = capture();
    const reporter = createCheckReporter('package', { listFailures: true, output });
    reporter.fail('npm install failed:\nlong log');
    reporter.fail('imports');
    reporter.summarize();
    expect(lines.slice(-3)).toEqual([
      'err:\npackage check: 2 failure(s)',
      'err:- npm install failed:',
      'err:- imports',
    ]);
  });
});
