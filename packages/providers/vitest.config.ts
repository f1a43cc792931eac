import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Passing tests finish in milliseconds; the roomy timeout is for a loaded CI machine
  // that runs every package's tests at once (property runs wait on the event loop).
  // Test files share their worker's modules (isolate: false): the SDKs, zod and ajv are
  // imported once per worker, not once per file (a quarter to two thirds of the run). No
  // test here mocks a module, and each puts back the timers and environment it changes.
  test: {
    include: ['src/**/*.test.ts'],
    isolate: false,
    testTimeout: 30_000,
  },
});
