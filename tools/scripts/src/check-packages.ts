/**
 * The package check (issue 8): do the published packages work outside the workspace?
 *
 * For every public package under packages/ (build them first, e.g. `pnpm run docs`):
 * 1. `pnpm pack` it, and check the tarball: README and LICENSE inside, no tests or
 *    fixtures, no `workspace:` ranges left, ESM-only metadata (`type`, `sideEffects`,
 *    `engines.node`, `license`).
 * 2. `publint` (strict) on the tarball.
 * 3. `attw --profile esm-only` on the tarball.
 * Then a smoke test in a fresh project under the OS temp folder, outside the workspace:
 * 4. `npm install` of all the tarballs (their dependencies come from the registry).
 * 5. Import every entry point of every package, run a tiny assembly + search.
 * 6. Under vitest (a peer of the `./testing` subpaths): import every `./testing`
 *    subpath and run `testRanker` on the default ranker.
 * 7. Type-check docs/examples against the installed packages, run each example, and
 *    run the `*.test.ts` examples under vitest.
 * 8. In a second project, `npm install` core and mcp beside `zod@3` (the peer range is
 *    `^3.25 || ^4`): it must resolve, and core must parse with zod 3.
 * 9. The new-user scenarios (new-user-scenarios.ts, new-user-loops.ts), each in empty
 *    folders: the gateway by `npx` (`demo`, `serve` with the MCP SDK client and the MCP
 *    Inspector), a custom ranker under `testRanker`, the ai-sdk README's quick start on
 *    `ai` 6 and 7, the Anthropic, OpenAI and Gemini guides' loops in client, hosted and
 *    bridge mode, Anthropic's append-only loop with thinking, against the stand-ins, and the
 *    langchain README's quick start and guide in a LangChain agent (strict tsc, then run). They run on the
 *    running Node and on Node 22 and 24 (new-user-lines.ts; those two are installed from the
 *    npm registry into a cache folder once, see node-lines.ts).
 *
 * Usage: `tsx src/check-packages.ts [--keep] [--scenarios-only] [--node <majors>]`
 * (--keep leaves the temp folder; --scenarios-only packs, then runs step 9 alone;
 * --node picks the lines, e.g. `--node current` or `--node current,24`; the default is
 * `current,22,24`). Ends with the time of each part. Exits non-zero with a list of failures.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { createCheckReporter, runCheck } from './check-reporter.js';
import { nodeLinesOf, startNodeLines } from './new-user-lines.js';
import { seconds } from './new-user-scenarios.js';
import { run } from './run.js';
import { strictTsconfig, TSC } from './scenario-kit.js';
import { type Manifest, type PublicPackage, publicPackages, repoRoot } from './workspace.js';

const root = repoRoot();
const scripts = join(root, 'tools', 'scripts');
const bin = (name: string) => join(scripts, 'node_modules', '.bin', name);

const reporter = createCheckReporter('package', { listFailures: true });
const { fail, pass, note, step } = reporter;

interface Packed {
  pkg: PublicPackage;
  tarball: string;
  files: string[];
  manifest: Manifest & Record<string, unknown>;
}

async function pack(pkg: PublicPackage, destination: string): Promise<Packed | undefined> {
  const name = pkg.manifest.name;
  const before = new Set(await readdir(destination));
  const result = await run('pnpm', ['pack', '--pack-destination', destination], { cwd: pkg.dir });
  const created = (await readdir(destination)).filter((file) => !before.has(file));
  if (result.code !== 0 || created.length !== 1) {
    fail(`${name}: pnpm pack failed (${result.code}): ${result.stderr || result.stdout}`);
    return undefined;
  }
  const tarball = join(destination, created[0]!);
  const listing = await run('tar', ['-tzf', tarball]);
  const files = listing.stdout
    .split('\n')
    .filter(Boolean)
    .map((file) => file.replace(/^package\//, ''));
  const manifestText = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  const manifest = JSON.parse(manifestText.stdout) as Packed['manifest'];
  return { pkg, tarball, files, manifest };
}

function checkContents({ manifest, files, tarball }: Packed): void {
  const name = manifest.name;
  const problems: string[] = [];
  if (!files.some((file) => /^readme(\.md)?$/i.test(file))) problems.push('no README.md');
  if (!files.some((file) => /^(licen[cs]e|copying)(\.md|\.txt)?$/i.test(file))) {
    problems.push('no LICENSE file (copy the root LICENSE into the package folder)');
  }
  const junk = files.filter((file) => /\.test\.|__fixtures__|\.scratch\//.test(file));
  if (junk.length > 0) problems.push(`test files shipped: ${junk.slice(0, 5).join(', ')}`);
  if (manifest.type !== 'module') problems.push('"type" is not "module"');
  if (manifest.sideEffects !== false) problems.push('"sideEffects" is not false');
  if (!(manifest.engines as { node?: string } | undefined)?.node) problems.push('no engines.node');
  if (typeof manifest.license !== 'string') problems.push('no "license"');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
    for (const [dep, range] of Object.entries((manifest[field] as Record<string, string>) ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${dep} is still ${range}`);
    }
  }
  const notes: string[] = [];
  if (files.some((file) => file.endsWith('.tsbuildinfo'))) notes.push('ships dist/.tsbuildinfo');
  if (
    files.some((file) => file.endsWith('.map')) &&
    !files.some((file) => file.startsWith('src/'))
  ) {
    notes.push('ships source maps that point at src/, which is not in the tarball');
  }
  for (const text of notes) note(`${name}: ${text}`);
  if (problems.length > 0) fail(`${name}: ${problems.join('; ')}`);
  else pass(`${name}: ${basename(tarball)}, ${files.length} files, metadata and contents`);
}

async function checkPublint({ manifest, tarball }: Packed): Promise<void> {
  const data = await readFile(tarball);
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({
    pack: { tarball: buffer as ArrayBuffer },
    level: 'suggestion',
    strict: true,
  });
  const errors = messages.filter((m) => m.type !== 'suggestion');
  for (const message of messages.filter((m) => m.type === 'suggestion')) {
    note(`${manifest.name} (publint): ${formatMessage(message, pkg, { color: false })}`);
  }
  if (errors.length > 0) {
    fail(
      `${manifest.name} (publint): ${errors.map((m) => formatMessage(m, pkg, { color: false })).join(' | ')}`,
    );
  } else pass(`${manifest.name}: publint (strict) clean`);
}

async function checkAttw({ manifest, tarball }: Packed): Promise<void> {
  const result = await run(bin('attw'), [
    tarball,
    '--profile',
    'esm-only',
    '--no-definitely-typed',
    '--format',
    'ascii',
    '--no-color',
    '--no-emoji',
  ]);
  if (result.code === 0) pass(`${manifest.name}: attw --profile esm-only clean`);
  else fail(`${manifest.name} (attw):\n${result.stdout}${result.stderr}`);
}

/** Every subpath import specifier of a package (`./package.json` excluded). */
function entryPoints(manifest: Manifest): string[] {
  const exports = manifest.exports ?? { '.': null };
  return Object.keys(exports)
    .filter((key) => key !== './package.json' && !key.includes('*'))
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}

async function smoke(packed: Packed[], work: string): Promise<void> {
  const consumer = join(work, 'consumer');
  await mkdir(consumer, { recursive: true });
  const rootManifest = JSON.parse(await readFile(join(scripts, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  // docs/examples type their requests with the provider SDKs, core's dev dependencies.
  const coreManifest = JSON.parse(
    await readFile(join(root, 'packages', 'core', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  // docs/examples/ai-sdk.ts and openai-agents.ts run on the AI SDK and the Agents SDK,
  // ai-sdk's dev dependencies (the peer `ai` at the version its tests ran).
  const aiSdkManifest = JSON.parse(
    await readFile(join(root, 'packages', 'ai-sdk', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  // @tool-search/mcp/store/redis runs on an optional peer (@redis/client, an mcp dev
  // dependency): installed here as a user of that entry installs it.
  const mcpManifest = JSON.parse(
    await readFile(join(root, 'packages', 'mcp', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  // docs/examples/langchain.ts runs on LangChain: langchain's dev dependencies (its peers).
  const langChainManifest = JSON.parse(
    await readFile(join(root, 'packages', 'langchain', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  // docs/examples/native-gemini.ts runs on @google/genai, a providers dev dependency.
  const providersManifest = JSON.parse(
    await readFile(join(root, 'packages', 'providers', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  // docs/examples/observability.ts registers the OpenTelemetry SDK: hooks' dev dependencies.
  const hooksManifest = JSON.parse(
    await readFile(join(root, 'packages', 'hooks', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  const sdks = {
    '@redis/client': mcpManifest.devDependencies['@redis/client'],
    ...Object.fromEntries(
      ['@opentelemetry/sdk-trace', '@opentelemetry/context-async-hooks'].map((name) => [
        name,
        hooksManifest.devDependencies[name],
      ]),
    ),
    '@google/genai': providersManifest.devDependencies['@google/genai'],
    ...Object.fromEntries(
      ['@langchain/core', '@langchain/langgraph', 'langchain'].map((name) => [
        name,
        langChainManifest.devDependencies[name],
      ]),
    ),
    ...Object.fromEntries(
      ['@anthropic-ai/sdk', 'openai'].map((name) => [name, coreManifest.devDependencies[name]]),
    ),
    ...Object.fromEntries(
      ['ai', '@openai/agents', 'zod'].map((name) => [name, aiSdkManifest.devDependencies[name]]),
    ),
  };
  const dependencies: Record<string, string> = {};
  const overrides: Record<string, string> = {};
  for (const { manifest, tarball } of packed) {
    dependencies[manifest.name] = `file:${tarball}`;
    // Sibling ranges (^0.0.0) must resolve to these tarballs, never to the registry.
    overrides[manifest.name] = `$${manifest.name}`;
  }
  await writeFile(
    join(consumer, 'package.json'),
    `${JSON.stringify(
      {
        name: 'tool-search-smoke',
        private: true,
        type: 'module',
        dependencies,
        devDependencies: { vitest: rootManifest.devDependencies['vitest'], ...sdks },
        overrides,
      },
      null,
      2,
    )}\n`,
  );
  const entries = packed.flatMap(({ manifest }) => entryPoints(manifest));
  await writeFile(join(consumer, 'entries.json'), `${JSON.stringify(entries, null, 2)}\n`);
  await cp(join(scripts, 'smoke'), join(consumer, 'smoke'), { recursive: true });
  await cp(join(root, 'docs', 'examples'), join(consumer, 'examples'), { recursive: true });
  await writeFile(
    join(consumer, 'tsconfig.json'),
    `${JSON.stringify(strictTsconfig('examples'), null, 2)}\n`,
  );

  step(`npm install of ${packed.length} tarballs in ${consumer}`);
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'],
    { cwd: consumer },
  );
  if (install.code !== 0) {
    fail(`npm install failed:\n${install.stdout}${install.stderr}`);
    return;
  }
  for (const { manifest } of packed) {
    const installed = JSON.parse(
      await readFile(join(consumer, 'node_modules', manifest.name, 'package.json'), 'utf8'),
    ) as Manifest;
    if (installed.version !== manifest.version) {
      fail(`${manifest.name}: installed ${installed.version}, packed ${manifest.version}`);
    }
  }
  pass('installed');

  step('import every entry point, then a tiny assembly + search');
  const imports = await run(process.execPath, ['smoke/imports.mjs'], { cwd: consumer });
  process.stdout.write(imports.stdout);
  if (imports.code !== 0) fail(`imports:\n${imports.stderr}`);
  const assembly = await run(process.execPath, ['smoke/assembly.mjs'], { cwd: consumer });
  process.stdout.write(assembly.stdout);
  if (assembly.code !== 0) fail(`assembly + search:\n${assembly.stderr}`);

  step('type-check docs/examples against the installed packages');
  const typecheck = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer });
  if (typecheck.code !== 0) {
    fail(`docs/examples do not type-check against the tarballs:\n${typecheck.stdout}`);
    return;
  }
  pass('docs/examples type-check');
  for (const file of (await readdir(join(consumer, 'out'))).sort()) {
    if (!file.endsWith('.js') || file.includes('.test.') || file === 'tools.js') continue;
    const example = await run(process.execPath, [join('out', file)], { cwd: consumer });
    if (example.code === 0) pass(`example ${file} runs`);
    else fail(`example ${file} exits ${example.code}:\n${example.stdout}${example.stderr}`);
  }

  step('vitest: ./testing subpaths and the *.test.ts examples');
  const vitest = await run(
    join(consumer, 'node_modules', '.bin', 'vitest'),
    ['run', '--root', consumer, '--dir', consumer, 'smoke/', 'examples/'],
    { cwd: consumer, env: { CI: 'true', FORCE_COLOR: '0' } },
  );
  const summary = vitest.stdout
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => /Test Files|Tests {2}/.test(line))
    .join('\n');
  if (vitest.code === 0) pass(`vitest\n${summary}`);
  else fail(`vitest exits ${vitest.code}:\n${vitest.stdout}${vitest.stderr}`);
}

/**
 * A user on zod 3 (3.25 ships `zod/v4`, which is what the packages import): installing
 * core and mcp beside `zod@3` must resolve without ERESOLVE, and core must parse with it.
 */
async function zod3Smoke(packed: Packed[], work: string): Promise<void> {
  step('npm install of core and mcp beside zod@3');
  const consumer = join(work, 'zod3');
  await mkdir(consumer, { recursive: true });
  const wanted = packed.filter(({ manifest }) =>
    ['@tool-search/core', '@tool-search/mcp'].includes(manifest.name),
  );
  const dependencies: Record<string, string> = { zod: '^3.25.76' };
  const overrides: Record<string, string> = {};
  for (const { manifest, tarball } of packed) {
    overrides[manifest.name] = `file:${tarball}`;
  }
  for (const { manifest, tarball } of wanted) dependencies[manifest.name] = `file:${tarball}`;
  await writeFile(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'tool-search-zod3', private: true, type: 'module', dependencies, overrides }, null, 2)}\n`,
  );
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'],
    { cwd: consumer },
  );
  if (install.code !== 0) {
    fail(`npm install beside zod@3 failed:\n${install.stdout}${install.stderr}`);
    return;
  }
  await writeFile(
    join(consumer, 'check.mjs'),
    [
      "import { createRequire } from 'node:module';",
      "import { parseToolSearchConfig, validateToolDefinition } from '@tool-search/core';",
      "const zod = createRequire(import.meta.url)('zod/package.json').version;",
      "if (!zod.startsWith('3.')) throw new Error('zod ' + zod + ' installed, expected 3.x');",
      "const config = parseToolSearchConfig({ threshold_pct: '15' });",
      "if (config.thresholdPct !== 15) throw new Error('config did not parse');",
      "validateToolDefinition({ name: 'a_tool', inputSchema: { type: 'object' } });",
      'let refused = false;',
      "try { validateToolDefinition({ name: '', inputSchema: 1 }); } catch { refused = true; }",
      "if (!refused) throw new Error('a bad definition was accepted');",
      "console.log('core parses with zod ' + zod);",
    ].join('\n'),
  );
  const checked = await run(process.execPath, ['check.mjs'], { cwd: consumer });
  if (checked.code === 0) pass(checked.stdout.trim());
  else fail(`core beside zod@3:\n${checked.stdout}${checked.stderr}`);
}

/** The parts of the check and their times, printed at the end. */
const times: [part: string, ms: number][] = [];
async function timed<T>(part: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    times.push([part, performance.now() - started]);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      keep: { type: 'boolean' },
      'scenarios-only': { type: 'boolean' },
      node: { type: 'string' },
    },
  });
  const started = performance.now();
  // The lines to install start downloading now, while the packages are packed and checked.
  const lines = nodeLinesOf(values.node);
  const packages = publicPackages(root);
  const work = await mkdtemp(join(tmpdir(), 'tool-search-packages-'));
  const tarballs = join(work, 'tarballs');
  await mkdir(tarballs);
  try {
    const packed = await timed('pack', () => packAll(packages, tarballs));
    if (packed === undefined) return;
    const byName = new Map(packed.map(({ manifest, tarball }) => [manifest.name, tarball]));
    // The scenarios (mostly waiting: npm, processes starting) run while the tarballs are
    // checked; their output is held and printed whole after the checks'.
    const scenarios = startNodeLines({ tarballs: byName, work, reporter }, lines);
    const onLines = `new-user scenarios on ${lines.map(({ major }) => `node ${major}`).join(', ')}`;
    if (values['scenarios-only']) {
      await timed(onLines, () => scenarios.run());
    } else {
      const ran = timed(onLines, () => scenarios.run({ quiet: true }));
      // Awaited below; a failure is reported there, never as an unhandled rejection.
      ran.catch(() => undefined);
      await timed('contents, publint, attw, smoke, zod 3', () => checkPacked(packed, work));
      await ran;
    }
  } finally {
    times.push(['the whole check', performance.now() - started]);
    step('time by part');
    for (const [part, ms] of times) note(`${part}: ${seconds(ms)}`);
    if (values.keep) console.log(`\nkept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/**
 * Step 1's packing.
 *
 * @returns the packed packages, or undefined when one could not be packed (reported)
 */
async function packAll(
  packages: readonly PublicPackage[],
  tarballs: string,
): Promise<Packed[] | undefined> {
  step(`pack ${packages.length} public packages`);
  const packed: Packed[] = [];
  for (const pkg of packages) {
    const result = await pack(pkg, tarballs);
    if (result) packed.push(result);
  }
  return packed.length === packages.length ? packed : undefined;
}

/** Steps 1 (the contents) to 8. */
async function checkPacked(packed: readonly Packed[], work: string): Promise<void> {
  for (const entry of packed) checkContents(entry);
  step('publint');
  for (const entry of packed) await checkPublint(entry);
  step('attw --profile esm-only');
  for (const entry of packed) await checkAttw(entry);
  await smoke([...packed], work);
  await zod3Smoke([...packed], work);
}

void runCheck(reporter, main);
