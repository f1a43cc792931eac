import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** A bundle written to a temporary folder, with its sizes. */
export interface Bundle {
  dir: string;
  file: string;
  bytes: number;
  gzipBytes: number;
  /** The files bundled into it (esbuild's metafile), as absolute paths. */
  inputs: string[];
}

/**
 * Bundles one of `src/worker/*.ts` as a Worker is deployed: one minified ES module, for
 * a runtime without Node's built-ins (workerd's default), from the built packages.
 *
 * @param entry - `worker.ts` or `run.ts`
 * @returns the bundle
 */
export function bundle(entry: 'worker.ts' | 'run.ts', dir?: string): Promise<Bundle> {
  return bundleFile(
    fileURLToPath(new URL(`./worker/${entry}`, import.meta.url)),
    entry.replace('.ts', '.mjs'),
    dir,
  );
}

/**
 * Bundles any module the same way.
 *
 * @param source - the module's path
 * @param name - the bundle's file name
 * @param dir - the folder (default: a new temporary one)
 * @param nodePaths - where packages that do not resolve from `source` are looked up
 *   (default: this package's `node_modules`)
 * @returns the bundle
 */
export async function bundleFile(
  source: string,
  name: string,
  dir?: string,
  nodePaths: readonly string[] = [fileURLToPath(new URL('../node_modules', import.meta.url))],
): Promise<Bundle> {
  const out = dir ?? mkdtempSync(join(tmpdir(), 'tool-search-edge-'));
  const file = join(out, name);
  const { metafile } = await build({
    entryPoints: [source],
    metafile: true,
    // A source outside this package (docs/examples) resolves the packages from here.
    nodePaths: [...nodePaths],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
    // What wrangler resolves for a Worker.
    conditions: ['workerd', 'worker', 'browser'],
    minify: true,
    outfile: file,
    // Only behind a runtime check, never on the Worker's paths.
    external: ['node:*'],
    logLevel: 'error',
  });
  const text = readFileSync(file);
  // esbuild names the inputs relative to its working folder.
  const inputs = Object.keys(metafile.inputs).map((input) => resolve(input));
  return { dir: out, file, bytes: text.byteLength, gzipBytes: gzipSync(text).byteLength, inputs };
}
