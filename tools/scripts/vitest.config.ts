import { defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

// smoke/*.test.mjs run inside the temporary consumer project of check-packages.ts only.
export default defineConfig({
  test: tiered({ include: ['src/**/*.test.ts'] }),
});
