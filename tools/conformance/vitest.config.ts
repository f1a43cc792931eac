import { defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

// One folder per part of the suite (server-2026/, client-auth/, ...), not src/: the
// integration tier's files are named here. Every file so far runs the suite on Node 22
// against spawned servers (the integration tier); the fast tier has nothing to run yet.
const files = ['*/**/*.test.ts'];
const integration = ['*/**/*.int.test.ts'];
const timeouts = { testTimeout: 300_000, hookTimeout: 300_000 };

export default defineConfig({
  test:
    process.env['TEST_TIER'] === 'integration'
      ? {
          include: integration,
          exclude: ['**/vendor/**', '**/node_modules/**'],
          passWithNoTests: true,
          ...timeouts,
        }
      : tiered({
          include: files,
          exclude: [
            '**/vendor/**',
            '**/node_modules/**',
            ...(process.env['TEST_TIER'] === 'fast' ? integration : []),
          ],
          ...timeouts,
        }),
});
