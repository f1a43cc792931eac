import { configDefaults, defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

// Every test here runs the suite in child processes (Node 22, the reference servers): the
// whole package is the integration tier, one folder per suite release (not under src/,
// so the tier's file pattern is widened to them here).
const SUITE_FILES = ['server-*/**/*.int.test.ts', 'client-*/**/*.int.test.ts'];
const tier = process.env['TEST_TIER'];
const test = tiered({
  include: SUITE_FILES,
  exclude: [...configDefaults.exclude, '**/vendor/**', ...(tier === 'fast' ? SUITE_FILES : [])],
  testTimeout: 600_000,
  hookTimeout: 300_000,
});

export default defineConfig({
  test: tier === 'integration' ? { ...test, include: SUITE_FILES } : test,
});
