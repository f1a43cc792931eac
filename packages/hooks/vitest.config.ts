import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

export default defineConfig({
  // Room for a busy machine: passing tests finish in milliseconds, but prompts and
  // property runs wait on the event loop, and CI runs every package at once.
  test: tiered(
    { include: ['src/**/*.test.ts'], testTimeout: 20_000 },
    // These assert on a fresh module graph: what an import loads, first-use state.
    { isolated: ['src/bridge-validation.integration.test.ts'] },
  ),
});
