import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** A bundle written to a temporary folder, with its sizes. */
export interface Bundle {
  dir: string;
  file: string;
  bytes: number;
  gzipBytes: number;
}

/**
 * Bundles one of `src/worker/*.ts` as a Worker is deployed: one minified ES module, for
 * a runtime without Node's built-ins (workerd's default), from the built packages.
 *
 * @param entry - `worker.ts` or `run.ts`
 * @returns the bundle
 */
export async function bundle(entry: 'worker.ts' | 'run.ts', dir?: string): Promise<Bundle> {
  const out = dir ?? mkdtempSync(join(tmpdir(), 'tool-search-edge-'));
  const file = join(out, entry.replace('.ts', '.mjs'));
  await build({
    entryPoints: [fileURLToPath(new URL(`./worker/${entry}`, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import', 'default'],
    minify: true,
    outfile: file,
    // Only behind a runtime check, never on the Worker's paths.
    external: ['node:*'],
    logLevel: 'silent',
  });
  const text = readFileSync(file);
  return { dir: out, file, bytes: text.byteLength, gzipBytes: gzipSync(text).byteLength };
}
