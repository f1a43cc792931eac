import { defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

export default defineConfig({
  // The gateway property starts a real gateway and a real upstream: allow for a busy CI box.
  test: tiered({ include: ['src/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 }),
});
