/**
 * What the new-user scenarios (new-user-scenarios.ts, new-user-loops.ts) are made of:
 * empty npm projects that install the packed tarballs as a user would, steps that run a
 * command and report it, a strict tsconfig for a user's file, and the pieces that take a
 * code block from a README or guide word for word into that file.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CheckReporter } from './check-reporter.js';
import type { NodeRuntime } from './node-lines.js';
import { run } from './run.js';
import { repoRoot } from './workspace.js';

/**
 * What a scenario gets: the packed tarballs by package name, a work folder, the Node it
 * runs on, the reporter.
 */
export interface ScenarioContext {
  /** `@tool-search/<name>` -> the absolute path of its packed tarball. */
  tarballs: ReadonlyMap<string, string>;
  /** A folder of the check's own (under the OS temp folder) to create projects in. */
  work: string;
  /** The Node that installs and runs everything of the scenario (npm and npx included). */
  node: NodeRuntime;
  /**
   * Whether tsc checks the user's files' types, or only emits them (`--noCheck`): the types
   * do not depend on the Node that runs tsc, so one line checks them and the others emit.
   * @defaultValue true
   */
  checkTypes?: boolean;
  reporter: Pick<CheckReporter, 'pass' | 'fail' | 'note' | 'step'>;
}

/** The projects of a scenario: folder name -> what it depends on (tarball names or ranges). */
export type ProjectPlans = Record<string, Record<string, string>>;

/**
 * One scenario: a name for the report, the projects it needs (installed up front, every
 * scenario's at once), and its run in those folders (failures go to the reporter).
 */
export interface Scenario {
  name: string;
  projects(context: ScenarioContext): Promise<ProjectPlans>;
  run(context: ScenarioContext, folders: Readonly<Record<string, string>>): Promise<void>;
}

/**
 * An installed project (how long its `npm install` took, and whether the folder is a
 * linked copy of one installed for another Node), or why the install failed.
 */
export type Installed = { folder: string; ms: number; linked?: true } | { problem: string };

/** Installs a project of a scenario (by default {@link installProject} in `context.work`). */
export type ProjectInstaller = (name: string, wanted: Record<string, string>) => Promise<Installed>;

export const root = repoRoot();
/** The files the scenarios copy into their projects. */
export const SCENARIO_FILES = join(root, 'tools', 'scripts', 'scenarios');
/** Each step's ceiling, so that a hung child fails the check instead of CI. */
export const STEP_TIMEOUT_MS = 180_000;
const QUIET_ENV = { NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' };

/**
 * The manifest of a workspace folder, for the ranges a scenario installs (the ones the
 * repository's own tests ran with).
 *
 * @param folder - e.g. `packages/ai-sdk`, from the repository root
 * @returns its package.json
 * @throws when it cannot be read
 */
export async function manifestOf(folder: string): Promise<Record<string, Record<string, string>>> {
  return JSON.parse(await readFile(join(root, folder, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
}

/**
 * Creates `<work>/<name>` as a fresh npm project that depends on `wanted` (tarball names
 * or registry ranges) and installs it. Every sibling resolves to its tarball (npm
 * `overrides`), never to the registry.
 *
 * @returns the folder, or the install's output when it failed
 * @throws when the folder cannot be written
 */
export async function installProject(
  context: Pick<ScenarioContext, 'tarballs' | 'work' | 'node'>,
  name: string,
  wanted: Record<string, string>,
): Promise<Installed> {
  const folder = join(context.work, name);
  await mkdir(folder, { recursive: true });
  const overrides: Record<string, string> = {};
  for (const [pkg, tarball] of context.tarballs) overrides[pkg] = `file:${tarball}`;
  const dependencies: Record<string, string> = {};
  for (const [pkg, range] of Object.entries(wanted)) {
    const tarball = context.tarballs.get(pkg);
    dependencies[pkg] = tarball === undefined ? range : `file:${tarball}`;
  }
  const manifest = {
    name: `new-user-${name}`,
    private: true,
    type: 'module',
    dependencies,
    overrides,
  };
  await writeFile(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const started = performance.now();
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'],
    { cwd: folder, env: context.node.env, timeoutMs: STEP_TIMEOUT_MS },
  );
  if (install.code !== 0) {
    return { problem: `${name}: npm install failed:\n${install.stdout}${install.stderr}` };
  }
  return { folder, ms: performance.now() - started };
}

/** A command a step runs. */
export interface StepCommand {
  program: string;
  args: readonly string[];
  cwd: string;
}

/**
 * Runs a step of a scenario on the scenario's Node and reports it, with the seconds it
 * took: ok when it exits 0 and `check` returns no problem text.
 *
 * @returns whether it passed
 * @throws when the program cannot be started
 */
export async function expectStep(
  context: Pick<ScenarioContext, 'reporter' | 'node'>,
  title: string,
  command: StepCommand,
  check: (stdout: string) => string | undefined,
): Promise<boolean> {
  const started = performance.now();
  const result = await run(command.program, command.args, {
    cwd: command.cwd,
    env: { ...QUIET_ENV, ...context.node.env },
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const problem = result.code === 0 ? check(result.stdout) : `exits ${result.code}`;
  if (problem === undefined) {
    context.reporter.pass(`${title} (${took})`);
    return true;
  }
  context.reporter.fail(
    `${title} (${took}): ${problem}\n${result.stdout.slice(-4000)}${result.stderr.slice(-4000)}`,
  );
  return false;
}

/**
 * The tsconfig of a user's project under strict mode (what the smoke test and the
 * scenarios type-check with): NodeNext, `strict`, `noUncheckedIndexedAccess`, Node's
 * types from the repository (a user has `@types/node`).
 *
 * @param rootDir - the folder of the sources, relative to the project
 * @returns the tsconfig.json object (emit to `out/`)
 * @throws nothing
 */
export function strictTsconfig(rootDir: string): object {
  return {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      rootDir,
      outDir: 'out',
    },
    include: [rootDir],
  };
}

/** The repository's TypeScript compiler (the version the packages are built with). */
export const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * The code of the first fenced `ts` block of a Markdown text, or of the first one after
 * the line `after` (e.g. a generated block's `<!-- include: … -->` marker).
 *
 * @param text - the Markdown
 * @param after - a whole line the block follows
 * @returns the block's code, without its fences
 * @throws Error when there is no such line or block
 */
export function markdownCodeBlock(text: string, after?: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const from = after === undefined ? 0 : lines.indexOf(after) + 1;
  if (from === 0 && after !== undefined) throw new Error(`no line ${after}`);
  const open = lines.findIndex(
    (line, index) => index >= from && /^```(ts|typescript)\s*$/.test(line),
  );
  const close = lines.findIndex((line, index) => index > open && /^```\s*$/.test(line));
  if (open < 0 || close < 0) throw new Error(`no \`\`\`ts block${after ? ` after ${after}` : ''}`);
  return lines.slice(open + 1, close).join('\n');
}

/**
 * A user's file: `template` with `code` in place of the marker line (a whole line, once)
 * or of the body of `// #region <name>` … `// #endregion <name>`.
 *
 * @param template - the file's text
 * @param place - `{ marker }` or `{ region }`
 * @param code - what goes there, as it is
 * @returns the text
 * @throws Error when the marker or region is not there exactly once
 */
export function pasteCode(
  template: string,
  place: { marker: string } | { region: string },
  code: string,
): string {
  const lines = template.split('\n');
  const [start, end] =
    'marker' in place
      ? [lines.indexOf(place.marker), lines.indexOf(place.marker)]
      : [
          lines.findIndex((line) => line.trim() === `// #region ${place.region}`),
          lines.findIndex((line) => line.trim() === `// #endregion ${place.region}`),
        ];
  const where = 'marker' in place ? place.marker : `#region ${place.region}`;
  if (start < 0 || end < start) throw new Error(`no ${where} in the template`);
  if ('marker' in place && lines.lastIndexOf(place.marker) !== start) {
    throw new Error(`${where} is in the template more than once`);
  }
  const kept = 'marker' in place ? [] : [lines[start]!];
  const closing = 'marker' in place ? [] : [lines[end]!];
  return [...lines.slice(0, start), ...kept, code, ...closing, ...lines.slice(end + 1)].join('\n');
}

/**
 * Writes a user's source files (`src/…`) and a {@link strictTsconfig} into a project,
 * type-checks them with tsc (a failure is reported with tsc's output; with `checkTypes`
 * false tsc only emits), then runs each `main` file from `out/` with Node, reported as
 * its own step.
 *
 * @param context - for the reporter and the Node
 * @param folder - the installed project
 * @param label - names the steps in the report
 * @param files - `src`-relative path -> text
 * @param mains - what to run, `src`-relative `.ts` paths, each with the check of its stdout
 * @returns whether everything passed
 * @throws when a file cannot be written or a program cannot be started
 */
export async function typecheckAndRun(
  context: Pick<ScenarioContext, 'reporter' | 'node' | 'checkTypes'>,
  folder: string,
  label: string,
  files: Record<string, string>,
  mains: Record<string, (stdout: string) => string | undefined>,
): Promise<boolean> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, 'src', path)), { recursive: true });
    await writeFile(join(folder, 'src', path), text);
  }
  await writeFile(
    join(folder, 'tsconfig.json'),
    `${JSON.stringify(strictTsconfig('src'), null, 2)}\n`,
  );
  const checking = context.checkTypes !== false;
  const typed = await expectStep(
    context,
    `${label}: tsc ${checking ? 'under strict mode' : '--noCheck (emit only)'} (${Object.keys(files).join(', ')})`,
    {
      program: context.node.execPath,
      args: [TSC, '-p', 'tsconfig.json', ...(checking ? [] : ['--noCheck'])],
      cwd: folder,
    },
    () => undefined,
  );
  if (!typed) return false;
  let passed = true;
  for (const [main, check] of Object.entries(mains)) {
    const script = join('out', main.replace(/\.ts$/, '.js'));
    const ran = await expectStep(
      context,
      `${label}: node ${script}`,
      { program: context.node.execPath, args: [script], cwd: folder },
      check,
    );
    passed &&= ran;
  }
  return passed;
}
