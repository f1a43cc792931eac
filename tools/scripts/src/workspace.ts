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

/** A public (not private) package under packages/ or apps/. */
export interface PublicPackage {
  dir: string;
  manifest: Manifest;
}

/** The folders that hold published packages: the libraries, then the apps (the gateway). */
const PUBLISHED_FOLDERS = ['packages', 'apps'] as const;

/** Every package under packages/ and apps/ that is not private, sorted by folder. */
export function publicPackages(root = repoRoot()): PublicPackage[] {
  return PUBLISHED_FOLDERS.flatMap((folder) => {
    const base = join(root, folder);
    return readdirSync(base)
      .sort()
      .map((name) => resolve(base, name));
  })
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
    }))
    .filter((entry) => !entry.manifest.private);
}
