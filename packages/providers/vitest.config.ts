import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Passing tests finish in milliseconds; the roomy timeout is for a loaded CI machine
  // that runs every package's tests at once (property runs wait on the event loop).
  test: { include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
