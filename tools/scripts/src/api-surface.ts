import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type PublicPackage, publicPackages } from './workspace.js';

/** The runtime names each import path of a package exports, sorted: `{ '.': [...], './testing': [...] }`. */
export type ApiSurface = Record<string, string[]>;

/** Where a package pins its surface: `packages/<name>/api-surface.json`. */
export const API_SURFACE_FILE = 'api-surface.json';

/**
 * The runtime names of every import path of a package's exports map, read from the
 * source its build entry compiles from (`dist/x.js` <- `src/x.ts`): no build needed, never
 * stale.
 *
 * @param pkg - a package of {@link publicPackages}
 * @returns the names per import path, each list sorted
 * @throws what importing an entry throws
 */
export async function runtimeSurface(pkg: PublicPackage): Promise<ApiSurface> {
  const surface: ApiSurface = {};
  for (const [subpath, target] of Object.entries(pkg.manifest.exports ?? {})) {
    if (typeof target !== 'object' || target === null) continue;
    const entry = (target as { default?: unknown }).default;
    if (typeof entry !== 'string') continue;
    const source = entry.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
    const module = (await import(pathToFileURL(join(pkg.dir, source)).href)) as object;
    surface[subpath] = Object.keys(module).sort();
  }
  return surface;
}

/**
 * The packages that pin their surface (they hold an `api-surface.json`).
 *
 * @returns those of {@link publicPackages}, sorted by folder
 * @throws when `packages/` cannot be read
 */
export function pinnedPackages(): PublicPackage[] {
  return publicPackages().filter((pkg) => existsSync(join(pkg.dir, API_SURFACE_FILE)));
}

/**
 * The pinned surface of a package.
 *
 * @param pkg - a package of {@link pinnedPackages}
 * @returns what its `api-surface.json` holds
 * @throws when the file is missing or not JSON
 */
export function pinnedSurface(pkg: PublicPackage): ApiSurface {
  return JSON.parse(readFileSync(join(pkg.dir, API_SURFACE_FILE), 'utf8')) as ApiSurface;
}

/**
 * Writes a package's current surface as its pin (run `pnpm format` after).
 *
 * @param pkg - a package
 * @param surface - from {@link runtimeSurface}
 * @throws when the file cannot be written
 */
export function writeSurface(pkg: PublicPackage, surface: ApiSurface): void {
  writeFileSync(join(pkg.dir, API_SURFACE_FILE), `${JSON.stringify(surface, null, 2)}\n`);
}
