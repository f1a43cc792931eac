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
 * - `AI SDK 6 and 7` and `provider loops` (new-user-loops.ts): the ai-sdk README's quick
 *   start on the scripted test model, and the Anthropic and OpenAI guides' loops against
 *   the stand-ins of `@tool-search/providers/testing` in client and hosted modes, each
 *   pasted word for word into a user's file, type-checked under strict mode and run.
 * - `LangChain` (new-user-loops.ts): the langchain README's quick start in a langchain
 *   `createAgent` with the scripted model of `@tool-search/langchain/testing`, a person's
 *   approval through `interrupt()` and `Command({ resume })`, and the LangChain guide's
 *   blocks in place of the regions of docs/examples/langchain.ts.
 *
 * Every scenario's projects are installed first, a few at a time, while the scenarios
 * then run one after the other in their folders.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aiSdkScenario, langChainScenario, providerLoopsScenario } from './new-user-loops.js';
import {
  expectStep,
  type Installed,
  installProject,
  manifestOf,
  type ProjectInstaller,
  SCENARIO_FILES,
  type Scenario,
  type ScenarioContext,
} from './scenario-kit.js';

export type { Scenario, ScenarioContext } from './scenario-kit.js';

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
  async projects() {
    const gateway = await manifestOf('apps/gateway');
    return {
      gateway: {
        '@tool-search/gateway': '',
        '@modelcontextprotocol/sdk': gateway['dependencies']!['@modelcontextprotocol/sdk']!,
        '@modelcontextprotocol/inspector-cli':
          gateway['devDependencies']!['@modelcontextprotocol/inspector-cli']!,
      },
    };
  },
  async run(context, folders) {
    const folder = folders['gateway']!;
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
      { program: context.node.execPath, args: ['gateway-client.mjs'], cwd: folder },
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
  async projects() {
    const scripts = await manifestOf('tools/scripts');
    return {
      'custom-ranker': {
        '@tool-search/core': '',
        vitest: scripts['devDependencies']!['vitest']!,
        zod: scripts['devDependencies']!['zod']!,
      },
    };
  },
  async run(context, folders) {
    const folder = folders['custom-ranker']!;
    await cp(join(SCENARIO_FILES, 'custom-ranker.test.mjs'), join(folder, 'ranker.test.mjs'));
    await expectStep(
      context,
      'testRanker passes a word-overlap ranker of our own',
      { program: 'npx', args: ['--no-install', 'vitest', 'run'], cwd: folder },
      (stdout) => (/Tests\s+\d+ passed/.test(stdout) ? undefined : 'no passing tests reported'),
    );
  },
};

/** The scenarios, in order. */
export const NEW_USER_SCENARIOS: readonly Scenario[] = [
  gatewayScenario,
  customRankerScenario,
  aiSdkScenario,
  providerLoopsScenario,
  langChainScenario,
];

/** How many `npm install`s run at once (the machine has 2 cores; installs mostly wait). */
export const PARALLEL_INSTALLS = 3;

/**
 * Installs every project of the given plans in {@link PARALLEL_INSTALLS} lanes (round
 * robin, one install after the other in each lane).
 *
 * @returns each project's install, by folder name
 * @throws nothing (a failed install is an {@link Installed} problem)
 */
export function installAll(
  install: ProjectInstaller,
  plans: readonly [string, Record<string, string>][],
): Map<string, Promise<Installed>> {
  const lanes: Promise<unknown>[] = Array.from({ length: PARALLEL_INSTALLS }, () =>
    Promise.resolve(),
  );
  const installs = new Map<string, Promise<Installed>>();
  for (const [index, [name, wanted]] of plans.entries()) {
    const installed = lanes[index % PARALLEL_INSTALLS]!.then(() => install(name, wanted)).catch(
      (error: unknown): Installed => ({ problem: `${name}: ${String(error)}` }),
    );
    lanes[index % PARALLEL_INSTALLS] = installed;
    installs.set(name, installed);
  }
  return installs;
}

/**
 * Runs every scenario of {@link NEW_USER_SCENARIOS} on `context.node`, each in its own
 * empty folders under `context.work` (all installed up front, a few at once); a scenario
 * whose install fails or that throws is reported as failed and the next one runs. Each
 * scenario's section names the Node and ends with the seconds it took (its wait for its
 * installs included).
 *
 * @param install - how a project is installed @defaultValue `npm install` on `context.node`
 *   ({@link installProject})
 * @returns when all have run; failures are in the reporter
 */
export async function runNewUserScenarios(
  context: ScenarioContext,
  install: ProjectInstaller = (name, wanted) => installProject(context, name, wanted),
): Promise<void> {
  const plans = await Promise.all(NEW_USER_SCENARIOS.map((scenario) => scenario.projects(context)));
  const installs = installAll(
    install,
    plans.flatMap((plan) => Object.entries(plan)),
  );
  for (const [index, scenario] of NEW_USER_SCENARIOS.entries()) {
    const started = performance.now();
    context.reporter.step(`new user (${context.node.label}): ${scenario.name}`);
    try {
      const folders: Record<string, string> = {};
      const problems: string[] = [];
      for (const name of Object.keys(plans[index]!)) {
        const installed = await installs.get(name)!;
        if ('folder' in installed) {
          folders[name] = installed.folder;
          context.reporter.note(
            installed.linked
              ? `${name}: linked from its one npm install (${seconds(installed.ms)})`
              : `${name}: npm install ${seconds(installed.ms)}`,
          );
        } else problems.push(installed.problem);
      }
      if (problems.length > 0) {
        for (const problem of problems) context.reporter.fail(`${scenario.name}: ${problem}`);
        continue;
      }
      await scenario.run(context, folders);
    } catch (error) {
      context.reporter.fail(
        `${scenario.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    } finally {
      context.reporter.note(`took ${seconds(performance.now() - started)}`);
    }
  }
}

/** A duration for the report: `12.3 s`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
