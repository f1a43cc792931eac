import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

export default defineConfig({
  // Passing tests finish quickly; the roomy timeouts are for a loaded CI machine that
  // runs every package's tests at once (property runs and child processes wait on it).
  test: tiered({ include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 }),
});
