import { describe, expect, it } from 'vitest';
import { FIXTURES } from './__fixtures__/paths.js';
import { runCli } from './__fixtures__/run.js';

const CONFIG = `${FIXTURES}config-warnings.json`;

describe('inspect with config keys it cannot use', () => {
  it('lists each unknown key and bad value before the servers, and still inspects', async () => {
    const run = await runCli(['inspect', '--config', CONFIG]);
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.stdout.split('\n').filter((line) => line.includes('warning: '));
    expect(warnings.slice(0, 4).map((line) => line.trim())).toEqual([
      'warning: toolsearch: unknown key, ignored',
      'warning: toolSearch.enabeld: unknown key, ignored',
      'warning: toolSearch.threshold: unknown key, ignored',
      'warning: toolSearch.thresholdPct: expected a number, got "ten"; using the default',
    ]);
    expect(run.stdout).toContain('config: 4 keys not used as written');
    expect(run.stdout.indexOf('config: 4 keys')).toBeLessThan(run.stdout.indexOf('github'));
    // The typo left the default in force: auto at 10%, not on.
    expect(run.stdout).toContain('when the deferrable tools reach 10% of the context window');
  }, 60_000);
});
