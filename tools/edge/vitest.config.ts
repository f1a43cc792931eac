import { defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

export default defineConfig({
  // Bundling and starting three runtimes: allow for a busy CI box.
  test: tiered({ include: ['src/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 }),
});
