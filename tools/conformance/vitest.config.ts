import { defineConfig } from 'vitest/config';

// One folder per part of the suite (server-2026/, client-auth/, ...), not src/. Every file
// here runs the suite on Node 22 against spawned servers: the integration tier only (the
// fast tier has nothing to run).
const fast = process.env['TEST_TIER'] === 'fast';

export default defineConfig({
  test: {
    include: fast ? [] : ['*/**/*.int.test.ts'],
    exclude: ['**/vendor/**', '**/node_modules/**'],
    passWithNoTests: true,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
