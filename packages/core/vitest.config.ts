import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

export default defineConfig({
  // Passing tests finish in milliseconds; the roomy timeout is for a loaded CI machine
  // that runs every package's tests at once (property runs wait on the event loop).
  test: tiered(
    { include: ['src/**/*.test.ts'], testTimeout: 30_000 },
    // These assert on a fresh module graph: what an import loads, first-use state.
    { isolated: ['src/entry-points.test.ts', 'src/analyzer.test.ts'] },
  ),
});
