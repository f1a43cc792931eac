import { defineConfig } from 'vitest/config';
import { tiered } from '../vitest/tiers.mjs';

// One folder per part of the suite (client-auth/, ...), not src/: the integration tier's
// files are named here.
const files = ['*/**/*.test.ts'];
const integration = ['*/**/*.int.test.ts'];

export default defineConfig({
  test:
    process.env['TEST_TIER'] === 'integration'
      ? {
          include: integration,
          exclude: ['**/vendor/**', '**/node_modules/**'],
          passWithNoTests: true,
        }
      : tiered({
          include: files,
          exclude: [
            '**/vendor/**',
            '**/node_modules/**',
            ...(process.env['TEST_TIER'] === 'fast' ? integration : []),
          ],
        }),
});
