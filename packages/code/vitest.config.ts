import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

export default defineConfig({
  // The sandbox's worker runs the built file (dist/sandbox-worker.js): build first
  // (turbo's `test` depends on `build`). Room for a busy machine: each test starts
  // worker threads and a WebAssembly module.
  test: tiered({
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    globalSetup: ['./vitest.setup.ts'],
  }),
});
