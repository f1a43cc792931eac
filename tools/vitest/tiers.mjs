// The two tiers of every package's tests. The fast tier needs no child process and no
// service: every file but the integration ones, with a setup file that refuses to start
// a process. The integration tier is the rest: `*.int.test.ts` (a process, a service or
// another runtime is the subject) and `*.browser.test.ts` (headless Chromium).
// `TEST_TIER=fast` or `TEST_TIER=integration` picks one; unset, a run takes both.
import { fileURLToPath } from 'node:url';
import { configDefaults } from 'vitest/config';

/** The files of the integration tier. */
export const INTEGRATION_FILES = ['src/**/*.int.test.ts', 'src/**/*.browser.test.ts'];

/** The setup file of the fast tier: any child process it starts fails its test. */
export const NO_SPAWN_SETUP = fileURLToPath(new URL('./no-spawn.ts', import.meta.url));

/**
 * Narrows a package's (or a project's) `test` options to the tier of `TEST_TIER`.
 *
 * The fast tier shares one module graph per worker (`isolate: false`): its time went to
 * importing the same graph again for every file. Both tiers run more files at once than
 * vitest's default of one per core but one, because their files mostly wait. A file that asserts on a fresh graph
 * (what an import loads, a module's first-use state) is named in `options.isolated` and
 * runs in a project of its own with a graph per file.
 *
 * @param {import('vitest/node').InlineConfig} test
 * @param {{ isolated?: readonly string[] }} [options]
 * @returns {import('vitest/node').InlineConfig}
 */
export function tiered(test, options = {}) {
  const tier = process.env['TEST_TIER'];
  const isolated = [...(options.isolated ?? [])];
  if (tier === 'fast') {
    const fast = {
      ...test,
      exclude: [...configDefaults.exclude, ...(test.exclude ?? []), ...INTEGRATION_FILES],
      setupFiles: [...toArray(test.setupFiles), NO_SPAWN_SETUP],
      isolate: test.isolate ?? false,
      // Two workers even on two cores: much of a file's time is a timer or an in-process
      // server waiting, which the other worker fills.
      maxWorkers: test.maxWorkers ?? 2,
      passWithNoTests: true,
    };
    if (isolated.length === 0) return fast;
    return {
      passWithNoTests: true,
      projects: [
        {
          extends: true,
          test: { ...fast, name: 'shared', exclude: [...fast.exclude, ...isolated] },
        },
        { extends: true, test: { ...fast, name: 'isolated', include: isolated, isolate: true } },
      ],
    };
  }
  if (tier === 'integration') {
    // Integration files mostly wait on the processes and services they start:
    // two at a time keep two cores busy where one at a time left them idle.
    return {
      ...test,
      include: INTEGRATION_FILES,
      maxWorkers: test.maxWorkers ?? 2,
      passWithNoTests: true,
    };
  }
  if (tier !== undefined && tier !== '') {
    throw new Error(`TEST_TIER must be 'fast' or 'integration', not '${tier}'`);
  }
  return test;
}

function toArray(value) {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
