// The second step of core's build (after `tsc -b`, which writes the declarations): the
// JavaScript of every entry point, bundled by esbuild, so that a fresh process resolves,
// reads and compiles a handful of files instead of one per source module.
// - Each entry point of the exports map is one module; what several entry points share
//   is in chunks beside them (one copy of each module's state, e.g. the error registry).
//   The chunks stay in `dist/` itself: `import.meta.url` keeps the depth that the
//   relative paths (`../data/...`) expect.
// - Dependencies and peers stay imports (the packages installed beside core).
// - `wink.cjs`: wink-nlp and the English model's code (not its JSON), one CommonJS file
//   that `src/wink-vendor.ts` requires where the runtime has a module loader, instead of
//   the ~60 files of the two packages. Elsewhere (workerd, a bundler) the packages load.
// Run by `pnpm build` (tsx bundle.ts); `wink-bundle.int.test.ts` checks `wink.cjs`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const here = fileURLToPath(new URL('.', import.meta.url));

/** The entry points of the exports map, by their file in `dist/` (without `.js`). */
const ENTRIES = {
  index: 'src/index.ts',
  internal: 'src/internal.ts',
  validate: 'src/validate.ts',
  'wink-embeddings': 'src/wink-embeddings.ts',
  'testing/index': 'src/testing/index.ts',
};

/** The model's code that `wink-model.ts` and `analyzer-wink.ts` load, by their key. */
export const WINK_MODEL_PARTS = {
  sbd: 'load-sbd-model.js',
  pos: 'load-pos-model.js',
  cer: 'load-cer-meta-model.js',
  feature: 'feature.js',
  stem: 'porter-stemmer.js',
} as const;

const WINK_PACKAGES = ['wink-nlp', 'wink-eng-lite-web-model'] as const;

const manifestOf = (name: string): string => require.resolve(`${name}/package.json`);
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(manifestOf(name), 'utf8')) as { version: string }).version;

/** The two packages' licenses, at the head of the file that holds their code. */
function licenses(): string {
  return WINK_PACKAGES.map((name) => {
    const text = readFileSync(manifestOf(name).replace(/package\.json$/, 'LICENSE'), 'utf8');
    return `/*! ${name} ${versionOf(name)}\n${text.trim().replaceAll('*/', '* /')}\n*/`;
  }).join('\n');
}

/**
 * Bundles the entry points into `outdir` (ES modules, shared chunks beside them).
 *
 * @param outdir - the folder (core's `dist/`)
 * @throws when esbuild fails
 */
export async function bundleEntries(outdir: string): Promise<void> {
  const { metafile } = await build({
    absWorkingDir: here,
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // The model's JSON is imported `with { type: 'json' }` (ES2025): kept as written.
    supported: { 'import-attributes': true },
    packages: 'external',
    external: ['../data/*'],
    chunkNames: 'chunk-[hash]',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
  });
  // A module in a subfolder (testing/index.js) has another `import.meta.url`: the
  // relative paths read from it would miss. Such code must go to a chunk.
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const nested = relative(outdir, resolve(here, file)).includes(sep);
    if (
      nested &&
      file.endsWith('.js') &&
      readFileSync(resolve(here, file), 'utf8').includes('import.meta')
    ) {
      throw new Error(
        `${file} reads import.meta in a subfolder of dist (from ${Object.keys(output.inputs).join(', ')})`,
      );
    }
  }
}

/**
 * Bundles wink-nlp and the model's code into one CommonJS file: `module.exports` holds
 * `nlp` (wink-nlp), the parts of {@link WINK_MODEL_PARTS} and the two packages'
 * `versions`.
 *
 * @param outfile - the file (core's `dist/wink.cjs`)
 * @throws when esbuild fails
 */
export async function bundleWink(outfile: string): Promise<void> {
  const versions = Object.fromEntries(WINK_PACKAGES.map((name) => [name, versionOf(name)]));
  const parts = Object.entries(WINK_MODEL_PARTS).map(
    ([key, file]) => `  ${key}: require('wink-eng-lite-web-model/dist/${file}'),`,
  );
  await build({
    absWorkingDir: here,
    stdin: {
      contents: [
        'module.exports = {',
        `  versions: ${JSON.stringify(versions)},`,
        "  nlp: require('wink-nlp'),",
        ...parts,
        '};',
      ].join('\n'),
      resolveDir: here,
      sourcefile: 'wink-bundle-entry.cjs',
      loader: 'js',
    },
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'es2022',
    banner: { js: licenses() },
    logLevel: 'warning',
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await bundleEntries(join(here, 'dist'));
  await bundleWink(join(here, 'dist', 'wink.cjs'));
}
