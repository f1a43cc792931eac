/**
 * The Node release lines the new-user scenarios run on: the running Node, and the LTS
 * lines users run (22 and 24), installed from the npm registry, which serves Node itself
 * as the `node` package (its preinstall script installs `node-<platform>-<arch>` of the
 * same version and links its binary to `node_modules/node/bin/node`).
 *
 * Each line is installed once into a cache folder outside the repository (so that a fresh
 * clone finds it) and reused while its binary is there: `$TOOL_SEARCH_NODE_CACHE`, else
 * `$XDG_CACHE_HOME/tool-search/node`, else `~/.cache/tool-search/node`. Delete the folder
 * to take the lines' newest releases.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { run } from './run.js';

/** The LTS lines the scenarios run on besides the running Node. */
export const NODE_LINES = ['22', '24'] as const;

/** A Node to run the scenarios on. */
export interface NodeRuntime {
  /** e.g. `node 22.23.3`, for the report. */
  readonly label: string;
  /** The `node` binary. */
  readonly execPath: string;
  /**
   * What a child needs so that `node`, `npm` and `npx` (and the `#!/usr/bin/env node` of
   * every installed bin) run on this Node: its folder first on `PATH`; empty for the
   * running Node.
   */
  readonly env: Readonly<Record<string, string>>;
}

/** The running Node, as a {@link NodeRuntime}. */
export function currentNode(): NodeRuntime {
  return { label: `node ${process.versions.node}`, execPath: process.execPath, env: {} };
}

/**
 * Where the lines are cached (see the file's header).
 *
 * @returns an absolute folder (not created here)
 * @throws nothing
 */
export function nodeCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const own = env['TOOL_SEARCH_NODE_CACHE'];
  if (own) return own;
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'tool-search', 'node');
}

function runtimeAt(folder: string, version: string): NodeRuntime {
  const execPath = join(folder, 'node_modules', 'node', 'bin', 'node');
  return {
    label: `node ${version}`,
    execPath,
    env: { PATH: [dirname(execPath), process.env['PATH'] ?? ''].join(delimiter) },
  };
}

/** The version of the `node` binary of a line's folder, when it is there and of that line. */
async function installedVersion(folder: string, major: string): Promise<string | undefined> {
  const execPath = join(folder, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(execPath)) return undefined;
  const result = await run(execPath, ['--version']);
  const version = result.stdout.trim().replace(/^v/, '');
  return result.code === 0 && version.startsWith(`${major}.`) ? version : undefined;
}

/** A line's Node, and whether it came from the cache. */
export interface InstalledNode {
  readonly runtime: NodeRuntime;
  readonly cached: boolean;
}

/**
 * The Node of a release line from the cache, or installed into it with
 * `npm install node@<major>` (into a folder of its own, then renamed into place, so that
 * two checks at once never see half an install).
 *
 * @param major - the line, e.g. `22`
 * @param cache - the cache folder @defaultValue {@link nodeCacheFolder}()
 * @returns the runtime
 * @throws Error when npm cannot install it, or the binary it installs is of another line
 */
export async function installNodeLine(
  major: string,
  cache: string = nodeCacheFolder(),
): Promise<InstalledNode> {
  const folder = join(cache, `node-${major}`);
  const cachedVersion = await installedVersion(folder, major);
  if (cachedVersion !== undefined) {
    return { runtime: runtimeAt(folder, cachedVersion), cached: true };
  }
  await mkdir(cache, { recursive: true });
  const staging = await mkdtemp(join(cache, `.node-${major}-`));
  try {
    await writeFile(join(staging, 'package.json'), '{ "private": true }\n');
    const install = await run(
      'npm',
      [
        'install',
        `node@${major}`,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--no-package-lock',
      ],
      { cwd: staging, timeoutMs: 300_000 },
    );
    if (install.code !== 0) {
      throw new Error(`npm install node@${major} failed:\n${install.stdout}${install.stderr}`);
    }
    const version = await installedVersion(staging, major);
    if (version === undefined) {
      throw new Error(`npm install node@${major} left no node ${major} binary in ${staging}`);
    }
    const theirs = await installedVersion(folder, major);
    if (theirs !== undefined) return { runtime: runtimeAt(folder, theirs), cached: true };
    await rm(folder, { recursive: true, force: true });
    try {
      await rename(staging, folder);
    } catch (error) {
      // Another check put the line in place first: that one is used.
      const theirs = await installedVersion(folder, major);
      if (theirs === undefined) throw error;
      return { runtime: runtimeAt(folder, theirs), cached: true };
    }
    return { runtime: runtimeAt(folder, version), cached: false };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
