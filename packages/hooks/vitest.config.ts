import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Room for a busy machine: passing tests finish in milliseconds, but prompts and
  // property runs wait on the event loop, and CI runs every package at once.
  test: { include: ['src/**/*.test.ts'], testTimeout: 20_000 },
});
