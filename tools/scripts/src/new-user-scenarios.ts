/**
 * The new-user scenarios of issue 26, repeated in CI from the packed tarballs: each one
 * starts in an empty folder outside the workspace, installs only what a user would
 * (`npm install` of the tarballs, their dependencies from the registry) and follows the
 * guides word for word. check-packages.ts runs them after its smoke test, with the
 * tarballs it packed.
 *
 * - `gateway`: `npx -y @tool-search/gateway demo`; then `serve --config gateway.json`
 *   reached by the MCP SDK client (stdio, spawned by `npx` as the client configs do) and
 *   by the MCP Inspector CLI from an Inspector config file (docs/guides/gateway.md).
 * - `custom ranker`: a ranker of the user's own, checked by `testRanker` under vitest.
 * - The AI SDK (6 and 7) and the providers (Anthropic and OpenAI, client and hosted
 *   modes) scenarios go in {@link NEW_USER_SCENARIOS}: see the slot there.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckReporter } from './check-reporter.js';
import { run } from './run.js';
import { repoRoot } from './workspace.js';

/** What a scenario gets: the packed tarballs by package name, a work folder, the reporter. */
export interface ScenarioContext {
  /** `@tool-search/<name>` -> the absolute path of its packed tarball. */
  tarballs: ReadonlyMap<string, string>;
  /** A folder of the check's own (under the OS temp folder) to create projects in. */
  work: string;
  reporter: Pick<CheckReporter, 'pass' | 'fail' | 'note' | 'step'>;
}

/** One scenario: a name for the report, and its run (failures go to the reporter). */
export interface Scenario {
  name: string;
  run(context: ScenarioContext): Promise<void>;
}

const root = repoRoot();
const SCENARIO_FILES = join(root, 'tools', 'scripts', 'scenarios');
/** Each step's ceiling, so that a hung child fails the check instead of CI. */
const STEP_TIMEOUT_MS = 180_000;
const QUIET_ENV = { NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' };

async function manifestOf(folder: string): Promise<Record<string, Record<string, string>>> {
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
 * @returns the folder, or undefined when the install failed (reported)
 */
export async function createProject(
  context: ScenarioContext,
  name: string,
  wanted: Record<string, string>,
): Promise<string | undefined> {
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
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'],
    { cwd: folder, timeoutMs: STEP_TIMEOUT_MS },
  );
  if (install.code !== 0) {
    context.reporter.fail(`${name}: npm install failed:\n${install.stdout}${install.stderr}`);
    return undefined;
  }
  return folder;
}

/** Runs a step of a scenario and reports it: ok when `check` returns no problem text. */
async function expectStep(
  context: ScenarioContext,
  title: string,
  command: { program: string; args: readonly string[]; cwd: string },
  check: (stdout: string) => string | undefined,
): Promise<void> {
  const result = await run(command.program, command.args, {
    cwd: command.cwd,
    env: QUIET_ENV,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const problem = result.code === 0 ? check(result.stdout) : `exits ${result.code}`;
  if (problem === undefined) context.reporter.pass(title);
  else {
    context.reporter.fail(
      `${title}: ${problem}\n${result.stdout.slice(-4000)}${result.stderr.slice(-4000)}`,
    );
  }
}

/** The gateway config of the scenario: the gateway's own recorded servers as upstreams. */
const GATEWAY_CONFIG = {
  mcpServers: {
    recorded: {
      command: 'npx',
      args: ['-y', '@tool-search/gateway', 'recorded-server', '--servers', 'github,slack,notion'],
    },
  },
  toolSearch: { enabled: 'on' },
};

/** The Inspector config file of docs/guides/gateway.md ("MCP Inspector"). */
const INSPECTOR_CONFIG = {
  mcpServers: {
    'tool-search': {
      command: 'npx',
      args: ['-y', '@tool-search/gateway', 'serve', '--config', '../gateway.json'],
    },
  },
};

function listsBridgeTools(stdout: string): string | undefined {
  let names: string[];
  try {
    names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  } catch {
    return 'the output is not the JSON of tools/list';
  }
  return names.includes('tool_search') ? undefined : `no tool_search in ${names.join(', ')}`;
}

const gatewayScenario: Scenario = {
  name: 'the gateway by npx: demo, an MCP SDK client, the MCP Inspector',
  async run(context) {
    const gateway = await manifestOf('apps/gateway');
    const folder = await createProject(context, 'gateway', {
      '@tool-search/gateway': '',
      '@modelcontextprotocol/sdk': gateway['dependencies']!['@modelcontextprotocol/sdk']!,
      '@modelcontextprotocol/inspector-cli':
        gateway['devDependencies']!['@modelcontextprotocol/inspector-cli']!,
    });
    if (folder === undefined) return;
    await expectStep(
      context,
      'npx -y @tool-search/gateway demo',
      { program: 'npx', args: ['-y', '@tool-search/gateway', 'demo'], cwd: folder },
      (stdout) => (stdout.includes('Done') ? undefined : 'the demo did not reach "Done"'),
    );
    await writeFile(join(folder, 'gateway.json'), `${JSON.stringify(GATEWAY_CONFIG, null, 2)}\n`);
    await cp(join(SCENARIO_FILES, 'gateway-client.mjs'), join(folder, 'gateway-client.mjs'));
    await expectStep(
      context,
      'serve --config gateway.json (stdio, spawned by npx): the MCP SDK client lists and searches',
      { program: process.execPath, args: ['gateway-client.mjs'], cwd: folder },
      () => undefined,
    );
    // inspector-cli 1.0.3 reads its version from `../package.json` relative to the current
    // folder (or fails), so it runs from a subfolder of the project; the full
    // `@modelcontextprotocol/inspector --cli` that the guide shows has no such need.
    const inspector = join(folder, 'inspector');
    await mkdir(inspector, { recursive: true });
    await writeFile(
      join(inspector, 'inspector.json'),
      `${JSON.stringify(INSPECTOR_CONFIG, null, 2)}\n`,
    );
    await expectStep(
      context,
      'the MCP Inspector CLI from an Inspector config file lists the bridge tools',
      {
        program: 'npx',
        args: [
          '--no-install',
          'mcp-inspector-cli',
          '--cli',
          '--config',
          'inspector.json',
          '--server',
          'tool-search',
          '--method',
          'tools/list',
        ],
        cwd: inspector,
      },
      listsBridgeTools,
    );
  },
};

const customRankerScenario: Scenario = {
  name: 'a custom ranker checked by testRanker',
  async run(context) {
    const scripts = await manifestOf('tools/scripts');
    const folder = await createProject(context, 'custom-ranker', {
      '@tool-search/core': '',
      vitest: scripts['devDependencies']!['vitest']!,
      zod: scripts['devDependencies']!['zod']!,
    });
    if (folder === undefined) return;
    await cp(join(SCENARIO_FILES, 'custom-ranker.test.mjs'), join(folder, 'ranker.test.mjs'));
    await expectStep(
      context,
      'testRanker passes a word-overlap ranker of our own',
      { program: 'npx', args: ['--no-install', 'vitest', 'run'], cwd: folder },
      (stdout) => (/Tests\s+\d+ passed/.test(stdout) ? undefined : 'no passing tests reported'),
    );
  },
};

/**
 * The scenarios, in order. Slot for the providers engineer (issue 26, items 2 to 5 and 8):
 * add the AI SDK 6 and 7 scenarios and the Anthropic and OpenAI loops in client and
 * hosted mode here, each as a {@link Scenario} that calls {@link createProject} with the
 * tarballs it needs and runs files kept beside gateway-client.mjs in
 * tools/scripts/scenarios/.
 */
export const NEW_USER_SCENARIOS: readonly Scenario[] = [gatewayScenario, customRankerScenario];

/**
 * Runs every scenario of {@link NEW_USER_SCENARIOS}, each in its own empty folder under
 * `context.work`; a scenario that throws is reported as failed and the next one runs.
 *
 * @returns when all have run; failures are in the reporter
 */
export async function runNewUserScenarios(context: ScenarioContext): Promise<void> {
  for (const scenario of NEW_USER_SCENARIOS) {
    context.reporter.step(`new user: ${scenario.name}`);
    try {
      await scenario.run(context);
    } catch (error) {
      context.reporter.fail(
        `${scenario.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }
}
