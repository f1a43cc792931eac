import { defineConfig } from 'vitest/config';

// The tests run the built CLI (dist/cli.js) as real processes: `pnpm test` builds first.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
