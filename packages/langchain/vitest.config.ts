import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

export default defineConfig({
  // Passing tests finish quickly; the roomy timeouts are for a loaded CI machine.
  test: tiered({ testTimeout: 30_000, hookTimeout: 60_000, include: ['src/**/*.test.ts'] }),
});
