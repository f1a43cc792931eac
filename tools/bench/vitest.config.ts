import { defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

export default defineConfig({
  // The smoke test spawns the bench (two child processes per run): allow for a busy CI box.
  test: tiered({ include: ['src/**/*.test.ts'], testTimeout: 120_000 }),
});
