import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root (the folder holding pnpm-workspace.yaml). */
export function repoRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'pnpm-workspace.yaml'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('pnpm-workspace.yaml not found above tools/scripts');
    folder = parent;
  }
  return folder;
}

/** What the checks read from a package.json. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** A public (not private) package under packages/. */
export interface PublicPackage {
  dir: string;
  manifest: Manifest;
}

/** Every package under packages/ that is not private, sorted by folder. */
export function publicPackages(root = repoRoot()): PublicPackage[] {
  const base = join(root, 'packages');
  return readdirSync(base)
    .sort()
    .map((name) => resolve(base, name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
    }))
    .filter((entry) => !entry.manifest.private);
}
