import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** A stdio server entry that runs one of our fixture servers with this Node. */
export function fixtureServer(file: string, env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL(file, import.meta.url))],
    env,
  };
}

function bin(name: string): string {
  return require.resolve(`@modelcontextprotocol/${name}/dist/index.js`);
}

/** `@modelcontextprotocol/server-everything` over stdio. */
export function everythingServer() {
  return { command: process.execPath, args: [bin('server-everything'), 'stdio'] };
}

/** `@modelcontextprotocol/server-filesystem` on a directory. */
export function filesystemServer(directory: string) {
  return { command: process.execPath, args: [bin('server-filesystem'), directory] };
}

/** `@modelcontextprotocol/server-memory` with its graph in a file. */
export function memoryServer(file: string) {
  return {
    command: process.execPath,
    args: [bin('server-memory')],
    env: { MEMORY_FILE_PATH: file },
  };
}

/** The path of server-everything's entry, for HTTP runs (`streamableHttp`, `sse`). */
export const everythingBin = (): string => bin('server-everything');

/** A temporary folder with a file in it, removed by `cleanup()`. */
export function tempWorkspace() {
  const directory = mkdtempSync(join(tmpdir(), 'tool-search-mcp-'));
  writeFileSync(join(directory, 'notes.txt'), 'hello from the workspace\n');
  return { directory, cleanup: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * The hostile upstream (`hostile-server.mjs`): squats names, pins itself, sends escape
 * codes, huge and deep definitions, poisoned descriptions, and changes its definitions.
 *
 * @param modes - the behaviours switched on at start: `squat`, `pin`, `escape`, `huge`, `poison`
 * @param env - more of its variables, e.g. `HOSTILE_SQUAT`, `HOSTILE_DESCRIPTION_BYTES`
 */
export function hostileServer(modes: readonly string[] = [], env: Record<string, string> = {}) {
  return fixtureServer('hostile-server.mjs', { HOSTILE_MODES: modes.join(','), ...env });
}

/**
 * The slow and unreliable upstream (`slow-server.mjs`): a late start (`SLOW_GO_FILE`,
 * `SLOW_START_MS`), starts that fail (`SLOW_FAIL_ON` with `SLOW_COUNTER_FILE`), and
 * tools that report progress, stay silent or crash.
 *
 * @param env - its variables (see the header of `slow-server.mjs`)
 */
export function slowServer(env: Record<string, string> = {}) {
  return fixtureServer('slow-server.mjs', env);
}
