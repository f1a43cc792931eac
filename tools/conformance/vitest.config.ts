import { defineConfig } from 'vitest/config';

// Every file here runs the suite in child processes (Node 22, the reference servers):
// the whole package is the integration tier, one folder per suite release.
const tier = process.env['TEST_TIER'];

export default defineConfig({
  test: {
    include: tier === 'fast' ? [] : ['*/**/*.int.test.ts'],
    exclude: ['**/vendor/**', '**/node_modules/**'],
    passWithNoTests: tier === 'fast',
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
