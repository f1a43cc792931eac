import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The gateway property starts a real gateway and a real upstream: allow for a busy CI box.
  test: { include: ['src/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 },
});
