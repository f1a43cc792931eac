import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

// The tests run the built CLI (dist/cli.js) as real processes: `pnpm test` builds first.
export default defineConfig({
  test: tiered({
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Its integration files mostly wait on the gateway processes they start, and they are
    // CI's longest package: four at a time.
    maxWorkers: 4,
  }),
});
