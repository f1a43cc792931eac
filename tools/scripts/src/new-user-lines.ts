/**
 * The new-user scenarios on every Node a user runs (check-packages.ts, step 9): on the
 * running Node (20 here), and on the LTS lines 22 and 24 installed from the npm registry
 * (node-lines.ts). Every step (tsc, the examples, `npx` of the gateway and the clients it
 * spawns) runs on the line's Node; tsc checks the user's files' types on the first line
 * only (the types do not depend on the Node), and only emits them on the others.
 *
 * Each project is installed once, by npm on the running Node, and every line gets a
 * hard-linked copy of it: npm resolves the same tree on any Node (it does not choose
 * versions by `engines`, and the only compiled files in the trees are Node-API binaries
 * picked by platform, not by Node version), and installs for every line were most of the
 * check's time. The installs start as soon as the tarballs are packed
 * ({@link startNodeLines}), so that they run while check-packages checks the tarballs.
 *
 * The first line's scenarios print as they go; the other lines run beside them, at most
 * {@link LINES_AT_ONCE} lines at a time, and their sections are printed whole when each is
 * done, so that the output reads line by line. A summary gives each line's time.
 */
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createDeferredReporter } from './check-reporter.js';
import {
  installAll,
  NEW_USER_SCENARIOS,
  runNewUserScenarios,
  type ScenarioContext,
  seconds,
} from './new-user-scenarios.js';
import {
  currentNode,
  type InstalledNode,
  installNodeLine,
  NODE_LINES,
  type NodeRuntime,
} from './node-lines.js';
import { run } from './run.js';
import { type Installed, installProject, type ProjectInstaller } from './scenario-kit.js';

/**
 * How many Node lines run their scenarios at once. The scenarios mostly wait (npm, child
 * processes starting); tsc and the gateways are what use the cores.
 */
export const LINES_AT_ONCE = 3;

/** A Node line to run the scenarios on: the running Node, or one being installed. */
export interface NodeLine {
  /** e.g. `22`. */
  readonly major: string;
  /** The runtime, once installed (the running Node resolves at once). */
  readonly install: Promise<InstalledNode>;
}

/** The running Node as a {@link NodeLine}. */
export function currentLine(): NodeLine {
  return {
    major: process.versions.node.split('.')[0]!,
    install: Promise.resolve({ runtime: currentNode(), cached: true }),
  };
}

/**
 * The Node lines of check-packages' `--node` (majors, `current` for the running Node;
 * {@link NODE_LINES} beside it by default). The installs of the others start at once.
 *
 * @param option - e.g. `current,22,24`
 * @returns the lines, the running Node's first when it is one of them
 * @throws nothing (a failed install rejects that line's `install`, caught when it runs)
 */
export function nodeLinesOf(option: string | undefined): NodeLine[] {
  const current = currentLine();
  const wanted = (option ?? ['current', ...NODE_LINES].join(','))
    .split(',')
    .map((major) => (major.trim() === 'current' ? current.major : major.trim()));
  return [...new Set(wanted)].map((major) => {
    if (major === current.major) return current;
    const install = installNodeLine(major);
    // Awaited later; a failure is reported there, never as an unhandled rejection.
    install.catch(() => undefined);
    return { major, install };
  });
}

/**
 * A copy of an installed project for another Node: hard links (`cp -al`, quick and small),
 * else a plain copy where `cp` cannot link.
 */
async function copyProject(from: string, to: string): Promise<void> {
  const linked = await run('cp', ['-al', from, to]);
  if (linked.code !== 0) await cp(from, to, { recursive: true, verbatimSymlinks: true });
}

/** The one install of each project, and each line's copies of them. */
interface SharedInstalls {
  /** Starts every scenario's installs (a few at a time). */
  prefetch(): void;
  /** The installer of a line whose folder is `lineWork`: a copy of the one install. */
  installerFor(lineWork: string): ProjectInstaller;
}

/**
 * Installs each project once (in `<work>/projects`, with npm on the running Node), and
 * gives each line a copy of it in that line's folder.
 *
 * @throws nothing (a failed install or copy is an {@link Installed} problem)
 */
function sharedInstalls(context: Pick<ScenarioContext, 'tarballs' | 'work'>): SharedInstalls {
  const once = new Map<string, Promise<Installed>>();
  const projects = join(context.work, 'projects');
  const node = currentNode();
  const installOnce: ProjectInstaller = (name, wanted) => {
    let installed = once.get(name);
    if (installed === undefined) {
      installed = installProject({ ...context, node, work: projects }, name, wanted);
      once.set(name, installed);
    }
    return installed;
  };
  // A plan that cannot be read here fails again, reported, when the lines run.
  const reporter = { pass() {}, fail() {}, note() {}, step() {} };
  const prefetch = async (): Promise<void> => {
    const plans = await Promise.all(
      NEW_USER_SCENARIOS.map((scenario) => scenario.projects({ ...context, node, reporter })),
    );
    installAll(
      installOnce,
      plans.flatMap((plan) => Object.entries(plan)),
    );
  };
  return {
    prefetch: () => void prefetch().catch(() => undefined),
    installerFor: (lineWork) => async (name, wanted) => {
      const result = await installOnce(name, wanted);
      if (!('folder' in result)) return result;
      const folder = join(lineWork, name);
      try {
        await mkdir(lineWork, { recursive: true });
        await copyProject(result.folder, folder);
      } catch (error) {
        return { problem: `${name}: copying its install failed: ${String(error)}` };
      }
      return { folder, ms: result.ms, linked: true };
    },
  };
}

/** What one line took, for the summary. */
interface LineTime {
  label: string;
  ms: number;
}

/** The new-user scenarios on the Node lines, their installs started. */
export interface NodeLineRuns {
  /**
   * Runs the scenarios on each line: the first line prints as it goes (or, with
   * `quiet`, when done, like the others: for a run beside other output); the others run
   * beside it ({@link LINES_AT_ONCE} at a time) and print when done, in order.
   *
   * @param options - `quiet`: hold the first line's output too
   * @returns when every line has run; failures (a line that cannot be installed among
   *   them) are in the reporter
   */
  run(options?: { readonly quiet?: boolean }): Promise<void>;
}

/**
 * Starts the installs of every scenario's projects now (npm on the running Node, a few
 * at a time), for the scenarios to run on each line later.
 *
 * @param context - the tarballs, the work folder (each line gets `<work>/node-<major>`),
 *   the reporter
 * @param lines - the lines, the first printed as it runs
 * @returns the runs, to start with `run()`
 * @throws nothing
 */
export function startNodeLines(
  context: Omit<ScenarioContext, 'node'>,
  lines: readonly NodeLine[],
): NodeLineRuns {
  const installs = sharedInstalls(context);
  installs.prefetch();
  return { run: (options) => runOnNodeLines(context, lines, installs, options?.quiet ?? false) };
}

async function runOnNodeLines(
  context: Omit<ScenarioContext, 'node'>,
  lines: readonly NodeLine[],
  installs: SharedInstalls,
  quiet: boolean,
): Promise<void> {
  const times: LineTime[] = [];
  const runLine = async (
    line: NodeLine,
    reporter: ScenarioContext['reporter'],
  ): Promise<LineTime | undefined> => {
    let runtime: NodeRuntime;
    try {
      const installed = await line.install;
      runtime = installed.runtime;
      if (!installed.cached) reporter.note(`${runtime.label} installed from the npm registry`);
    } catch (error) {
      reporter.step(`new user (node ${line.major})`);
      reporter.fail(`node ${line.major}: ${error instanceof Error ? error.message : error}`);
      return undefined;
    }
    const started = performance.now();
    const work = join(context.work, `node-${line.major}`);
    await runNewUserScenarios(
      // The first line checks the user's files' types; the others only emit them.
      { ...context, reporter, work, node: runtime, checkTypes: line === lines[0] },
      installs.installerFor(work),
    );
    return { label: runtime.label, ms: performance.now() - started };
  };

  const [first, ...others] = lines;
  const deferred = others.map(() => createDeferredReporter());
  let next = 0;
  // Lines that run beside the first, each taking the next line when it is done.
  const lane = async (): Promise<void> => {
    while (next < others.length) {
      const index = next++;
      const time = await runLine(others[index]!, deferred[index]!.reporter);
      if (time !== undefined) times[index + 1] = time;
    }
  };
  const lanes = Array.from({ length: Math.min(LINES_AT_ONCE - 1, others.length) }, lane);
  const held = quiet ? createDeferredReporter() : undefined;
  if (first !== undefined) {
    const time = await runLine(first, held?.reporter ?? context.reporter);
    if (time !== undefined) times[0] = time;
  }
  // With only one line at a time, the others run after the first.
  if (lanes.length === 0) await lane();
  await Promise.all(lanes);
  held?.replay(context.reporter);
  for (const line of deferred) line.replay(context.reporter);

  context.reporter.step('new user: time by Node line (each from its installs to its last step)');
  for (const time of times) {
    if (time !== undefined) context.reporter.note(`${time.label}: ${seconds(time.ms)}`);
  }
}
