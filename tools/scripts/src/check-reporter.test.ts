import { describe, expect, it } from 'vitest';
import { createCheckReporter, createDeferredReporter } from './check-reporter.js';

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

describe('createDeferredReporter', () => {
  it('holds its lines until replayed, then hands them on in order, failures recorded', () => {
    const { lines, output } = capture();
    const target = createCheckReporter('package', { output });
    const deferred = createDeferredReporter();
    deferred.reporter.step('new user (node 24.9.0): a custom ranker');
    deferred.reporter.pass('testRanker passes');
    deferred.reporter.fail('the demo did not reach "Done"');
    deferred.reporter.note('took 3.2 s');
    target.pass('before the replay');
    expect(lines).toEqual(['out:  ok   before the replay']);
    deferred.replay(target);
    deferred.replay(target);
    expect(lines).toEqual([
      'out:  ok   before the replay',
      'out:\n--- new user (node 24.9.0): a custom ranker',
      'out:  ok   testRanker passes',
      'err:  FAIL the demo did not reach "Done"',
      'out:  note took 3.2 s',
    ]);
    expect(target.failures).toEqual(['the demo did not reach "Done"']);
  });
});
