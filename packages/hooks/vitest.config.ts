import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Room for a busy machine: passing tests finish in milliseconds, but prompts and
  // property runs wait on the event loop, and CI runs every package at once.
  // Test files share their worker's modules (isolate: false): the SDKs, zod and ajv are
  // imported once per worker, not once per file (a quarter to two thirds of the run). No
  // test here mocks a module, and each puts back the timers and environment it changes.
  test: {
    include: ['src/**/*.test.ts'],
    isolate: false,
    testTimeout: 20_000,
  },
});
