import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The smoke test spawns the bench (two child processes per run): allow for a busy CI box.
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000 },
});
