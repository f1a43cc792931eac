import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

export default defineConfig({
  test: tiered({ include: ['src/**/*.test.ts'] }),
});
