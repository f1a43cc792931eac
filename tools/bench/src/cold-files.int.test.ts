// Integration tier (a fresh `node` per case): what a cold start of core's build loads.
// The time is `pnpm bench --cold`'s to measure; this guards the form that makes it
// short: core's entry points bundled (bundle.ts in packages/core), wink-nlp and the
// model's code from one file, the optional libraries not loaded by a search.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadRealTools } from './catalog-data.js';

const run = promisify(execFile);
const QUERY = 'create an issue in a github repository';
// Tests never read the shared data: a missing folder gives the vendored fixtures.
const NO_DATA = fileURLToPath(new URL('./no-such-folder', import.meta.url));

// The child imports core, builds a catalog of the vendored fixtures, answers a search,
// and prints the top names and the CommonJS files loaded (require.cache); a resolve hook
// (a loader: Node 20 has no in-thread hooks) writes each ES module's URL to stderr.
const CHILD = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const core = await import('@tool-search/core');
const tools = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const catalog = core.createCatalog(tools, { ranker: core.createBm25Ranker() });
const hits = await catalog.search(${JSON.stringify(QUERY)}, { limit: 5 });
const require = createRequire(import.meta.url);
console.log(JSON.stringify({ names: hits.map((hit) => hit.name), cjs: Object.keys(require.cache) }));
`;
const HOOK = `data:text/javascript,${encodeURIComponent(
  "export async function resolve(specifier, context, next) { const result = await next(specifier, context); process.stderr.write('esm ' + result.url + '\\n'); return result; }",
)}`;

const coreDist = dirname(fileURLToPath(import.meta.resolve('@tool-search/core')));

async function coldStart(): Promise<{ names: string[]; esm: string[]; cjs: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cold-files-'));
  try {
    const file = join(dir, 'tools.json');
    writeFileSync(file, JSON.stringify(loadRealTools(NO_DATA).tools.slice(0, 50)));
    const { stdout, stderr } = await run(
      process.execPath,
      ['--no-warnings', '--experimental-loader', HOOK, '--input-type=module', '-e', CHILD, file],
      { cwd: fileURLToPath(new URL('.', import.meta.url)), maxBuffer: 8 * 1024 * 1024 },
    );
    const esm = [...stderr.matchAll(/^esm (\S+)$/gm)].map((match) => match[1]!);
    const { names, cjs } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      names: string[];
      cjs: string[];
    };
    return { names, esm, cjs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a cold start of @tool-search/core (its build)', () => {
  it('ships each entry point as one module, with a few shared chunks', () => {
    const modules = readdirSync(coreDist, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.js'),
    );
    expect(modules).toEqual(expect.arrayContaining(['index.js', 'internal.js', 'validate.js']));
    expect(modules.length).toBeLessThanOrEqual(12);
  });

  it('answers its first search reading wink-nlp and the model code from dist/wink.cjs', async () => {
    const { names, esm, cjs } = await coldStart();
    expect(names).toHaveLength(5);
    expect(cjs).toContain(join(coreDist, 'wink.cjs'));
    expect(cjs.filter((file) => /[/\\]wink-nlp[/\\]/.test(file))).toEqual([]);
    expect(cjs.filter((file) => /[/\\](zod|ajv|re2js)[/\\]/.test(file))).toEqual([]);
    const coreModules = new Set(esm.filter((url) => url.startsWith(`file://${coreDist}/`)));
    expect(coreModules).toContain(`file://${coreDist}/index.js`);
    expect(coreModules.size).toBeLessThanOrEqual(8);
  });
});
