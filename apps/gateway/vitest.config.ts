import { defineConfig } from 'vitest/config';

// The tests run the built CLI (dist/cli.js) as real processes: `pnpm test` builds first.
export default defineConfig({
  // Test files share their worker's modules (isolate: false): the SDKs, zod and ajv are
  // imported once per worker, not once per file (a quarter to two thirds of the run). No
  // test here mocks a module, and each puts back the timers and environment it changes.
  test: {
    include: ['src/**/*.test.ts'],
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
