import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Bundling and starting three runtimes: allow for a busy CI box.
  test: { include: ['src/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 },
});
