import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The Worker's sources beside the packed packages, as a project that installed them. */
export interface PackedProject {
  /** The project's folder: `node_modules/@tool-search/<name>` holds each tarball's files. */
  dir: string;
  /** `src/worker/` copied into the project. */
  workerDir: string;
  /**
   * The workspace packages' own `node_modules`: where their dependencies (wink-nlp, ajv,
   * re2js, ...) resolve from, as an install would have put them.
   */
  nodePaths: string[];
}

/**
 * Packs workspace packages with `pnpm pack` (what npm would publish: the `files` of each
 * manifest) and unpacks them into a new folder's `node_modules`, with a copy of
 * `src/worker/`, so that a bundle of the Worker takes the packed files, not the workspace.
 *
 * @param names - folders under `packages/` (their built `dist` is packed)
 * @returns the project
 * @throws when `pnpm pack` or `tar` fails
 */
export async function packedProject(names: readonly string[]): Promise<PackedProject> {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-edge-packed-'));
  const tarballs = join(dir, 'tarballs');
  mkdirSync(tarballs);
  for (const name of names) {
    const before = new Set(readdirSync(tarballs));
    await run('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: join(root, 'packages', name),
    });
    const tarball = readdirSync(tarballs).find((file) => !before.has(file));
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}`);
    const target = join(dir, 'node_modules', '@tool-search', name);
    mkdirSync(target, { recursive: true });
    await run('tar', ['-xzf', join(tarballs, tarball), '-C', target, '--strip-components=1']);
  }
  const workerDir = join(dir, 'src', 'worker');
  cpSync(fileURLToPath(new URL('./worker', import.meta.url)), workerDir, { recursive: true });
  const nodePaths = names.map((name) => join(root, 'packages', name, 'node_modules'));
  return { dir, workerDir, nodePaths };
}
