import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { tiered } from '../../tools/vitest/tiers.mjs';

// The same tests run against ai 7 (the `ai` dev dependency) and ai 6 (the `ai6` alias):
// the ai6 project points every import of `ai` and `ai/test`, ours included, at ai 6.
// Files named *.ai7.test.ts use what only ai 7 has (`toolSearch`, `deferLoading`).
const ai6 = (file: string) =>
  fileURLToPath(new URL(`./node_modules/ai6/dist/${file}`, import.meta.url));
// ai 6 takes providers of specification v3: @ai-sdk/anthropic 3 (the `anthropic3` alias).
const anthropic3 = fileURLToPath(
  new URL('./node_modules/anthropic3/dist/index.mjs', import.meta.url),
);

export default defineConfig({
  // Passing tests finish quickly; the roomy timeouts are for a loaded CI machine.
  test: {
    // A tier may hold no file of this package: its projects cannot say so on their own.
    passWithNoTests: process.env['TEST_TIER'] !== undefined,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: tiered({ name: 'ai7', include: ['src/**/*.test.ts'] }) },
      {
        extends: true,
        test: tiered({
          name: 'ai6',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.ai7.test.ts'],
        }),
        resolve: {
          alias: [
            { find: /^ai$/, replacement: ai6('index.mjs') },
            { find: /^ai\/test$/, replacement: ai6('test/index.mjs') },
            { find: /^@ai-sdk\/anthropic$/, replacement: anthropic3 },
          ],
        },
      },
    ],
  },
});
