import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The real MCP servers the app depends on, by the name the demo gives them. */
export const BUNDLED_SERVERS = {
  everything: '@modelcontextprotocol/server-everything',
  filesystem: '@modelcontextprotocol/server-filesystem',
  memory: '@modelcontextprotocol/server-memory',
} as const;

/**
 * The absolute path of an installed package's first `bin` script, so that it can be
 * spawned with `process.execPath` (no `npx`, no network, no shell).
 *
 * @param packageName - e.g. `@modelcontextprotocol/server-memory`
 * @returns the script's path
 * @throws `Error` when the package is not installed or has no `bin`
 */
export function resolveBinScript(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin =
    typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${packageName} has no bin script.`);
  return join(dirname(manifestPath), bin);
}

/** The built CLI of this app (`dist/cli.js`), for spawning its subcommands. */
export const CLI_SCRIPT = fileURLToPath(new URL('./cli.js', import.meta.url));
