// Every package's tests run in the two tiers (CONTRIBUTING.md, "Tests in two tiers"):
// its vitest config narrows them with `tiered` and its scripts name both tiers, so that a
// new package cannot put a process start into the fast tier or drop out of `pnpm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const withTests = ['packages', 'apps', 'tools']
  .flatMap((folder) => readdirSync(join(root, folder)).map((name) => join(folder, name)))
  .filter((dir) => existsSync(join(root, dir, 'vitest.config.ts')));

describe('the test tiers', () => {
  it('has packages to check', () => {
    expect(withTests.length).toBeGreaterThan(10);
  });

  it.each(withTests)('%s narrows its tests to the tier and names both tiers', (dir) => {
    const config = readFileSync(join(root, dir, 'vitest.config.ts'), 'utf8');
    expect(config).toContain('tiers.mjs');
    expect(config).toMatch(/tiered\(/);
    const { scripts } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts['test:fast']).toMatch(/TEST_TIER=fast vitest run$/);
    expect(scripts['test:integration']).toMatch(/TEST_TIER=integration vitest run$/);
  });

  it("runs both tiers from the root's pnpm test, the README's command", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts['test']).toBe('pnpm run test:fast && pnpm run test:integration');
  });
});
