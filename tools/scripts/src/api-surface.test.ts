import { describe, expect, it } from 'vitest';
import { pinnedPackages, pinnedSurface, runtimeSurface, writeSurface } from './api-surface.js';

// One test pins the public surface of every package: the runtime names each import path
// exports, against `packages/<name>/api-surface.json`. A line there is an API decision: a
// name added or dropped by accident fails here; one added on purpose changes the file in
// the same commit, with a changeset. `UPDATE_API_SURFACE=1 pnpm exec vitest run
// src/api-surface.test.ts` rewrites the files (then `pnpm format`).
const update = process.env['UPDATE_API_SURFACE'] === '1';

describe('the public surface of each package', () => {
  const packages = pinnedPackages();

  it('is pinned for every library', () => {
    expect(packages.map((pkg) => pkg.manifest.name)).toEqual([
      '@tool-search/ai-sdk',
      '@tool-search/bridge',
      '@tool-search/code',
      '@tool-search/core',
      '@tool-search/hooks',
      '@tool-search/langchain',
      '@tool-search/mcp',
      '@tool-search/mcp-http',
      '@tool-search/providers',
      '@tool-search/terminal',
      '@tool-search/toolsets',
    ]);
  });

  it.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))(
    '%s exports exactly the pinned runtime names from each import path',
    async (_name, pkg) => {
      const surface = await runtimeSurface(pkg);
      if (update) writeSurface(pkg, surface);
      expect(surface).toEqual(pinnedSurface(pkg));
    },
    // Importing a package's sources the first time transforms them all.
    60_000,
  );
});
