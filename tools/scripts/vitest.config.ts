import { defineConfig } from 'vitest/config';

// smoke/*.test.mjs run inside the temporary consumer project of check-packages.ts only.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'] },
});
