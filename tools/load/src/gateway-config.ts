import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The built gateway CLI (`apps/gateway/dist/cli.js`), run as a real process. */
export const GATEWAY_CLI = join(
  dirname(require.resolve('@tool-search/gateway/package.json')),
  'dist',
  'cli.js',
);

/** The hang fixture of packages/mcp: its `hang` tool never answers. */
export const HANG_SERVER = fileURLToPath(
  new URL('../../../packages/mcp/src/__fixtures__/hang-server.mjs', import.meta.url),
);

/**
 * The bin script of an installed package (its first, when it has several).
 *
 * @param packageName - e.g. `@modelcontextprotocol/server-everything`
 * @returns the script's absolute path
 * @throws `Error` when the package has no bin script
 */
export function binScript(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin =
    typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${packageName} has no bin script.`);
  return join(dirname(manifestPath), bin);
}

/** The recorded catalogs: two processes of the app's `recorded-server`, 157 and 115 tools. */
export const CATALOGS = {
  'catalog-dev': ['github', 'gitlab-zereight', 'circleci'],
  'catalog-web': ['notion', 'playwright', 'firecrawl', 'slack', 'chrome-devtools'],
} as const;

/** An upstream server of the generated config. */
export type ServerName = 'filesystem' | 'memory' | 'everything' | keyof typeof CATALOGS | 'hang';

/** A profile of the generated config: its name, its servers and its token. */
export interface LoadProfile {
  name: string;
  servers: ServerName[];
  token: string;
}

/** The profiles, in the order `--profiles N` takes them. */
const PROFILE_SERVERS: [string, ServerName[]][] = [
  ['files', ['filesystem', 'catalog-dev']],
  ['memory', ['memory', 'catalog-web']],
  ['everything', ['everything', 'catalog-dev']],
  ['notes', ['filesystem', 'memory', 'catalog-web']],
];

/** Options of {@link writeLoadConfig}. */
export interface LoadConfigOptions {
  /** How many profiles, 1 to 4. */
  profiles: number;
  /** Add the hang fixture (the fault run). */
  hang: boolean;
  /** Set `"maxConcurrency": 1` on the memory server. */
  memoryQueue: boolean;
  /** Only these servers (the approvals run needs the filesystem alone). @defaultValue all */
  only?: readonly ServerName[];
  /** Every `write_file` needs the person's approval, asked through MCP elicitation. */
  approval?: boolean;
}

/** What {@link writeLoadConfig} made. */
export interface LoadConfig {
  /** The config file. */
  file: string;
  /** The folder the filesystem server serves. */
  workspace: string;
  /** The memory server's graph file. */
  memoryFile: string;
  /** The profiles with their tokens. */
  profiles: LoadProfile[];
  /** The token of sessions without a profile (every tool). */
  adminToken: string;
  /** The servers of the config, with how each is spawned. */
  servers: Record<ServerName, { command: string; args: string[]; env?: Record<string, string> }>;
}

function token(name: string): string {
  return `${name}-${randomBytes(12).toString('hex')}`;
}

/**
 * Writes the gateway config of a run into `folder`: the real filesystem, memory and
 * everything servers, two recorded catalogs (so that tool search activates), the hang
 * fixture for the fault run, and `profiles` profiles with their own tokens.
 *
 * With `only`, the config has only those servers; with `approval`, every `write_file`
 * asks the client's person (MCP elicitation) and is denied when it cannot ask.
 *
 * @param folder - a fresh temporary folder
 * @param options - see {@link LoadConfigOptions}
 * @returns the file and what the run needs to know about it
 * @throws the `fs` error when the folder cannot be written
 */
export function writeLoadConfig(folder: string, options: LoadConfigOptions): LoadConfig {
  const node = process.execPath;
  const workspace = join(folder, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'seed.txt'), 'a file every session may read\n');
  const memoryFile = join(folder, 'memory.jsonl');
  const servers: LoadConfig['servers'] = {
    filesystem: {
      command: node,
      args: [binScript('@modelcontextprotocol/server-filesystem'), workspace],
    },
    memory: {
      command: node,
      args: [binScript('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: memoryFile },
    },
    everything: {
      command: node,
      args: [binScript('@modelcontextprotocol/server-everything'), 'stdio'],
    },
    'catalog-dev': {
      command: node,
      args: [GATEWAY_CLI, 'recorded-server', '--servers', CATALOGS['catalog-dev'].join(',')],
    },
    'catalog-web': {
      command: node,
      args: [GATEWAY_CLI, 'recorded-server', '--servers', CATALOGS['catalog-web'].join(',')],
    },
    hang: { command: node, args: [HANG_SERVER] },
  };
  const mcpServers: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    if (name === 'hang' && !options.hang) continue;
    if (options.only !== undefined && !options.only.includes(name as ServerName)) continue;
    // The memory server rewrites its whole file on every write: concurrent writes lose
    // each other. A per-upstream queue (`maxConcurrency`) holds them in line; a gateway
    // without that field ignores it.
    mcpServers[name] =
      name === 'memory' && options.memoryQueue ? { ...server, maxConcurrency: 1 } : server;
  }
  if (!options.hang) delete (servers as Partial<LoadConfig['servers']>).hang;
  const profiles = PROFILE_SERVERS.slice(0, options.profiles).map(
    ([name, profileServers]): LoadProfile => ({
      name,
      servers: profileServers,
      token: token(name),
    }),
  );
  const config = {
    mcpServers,
    toolSearch: { enabled: 'auto', thresholdPct: 10 },
    ...(options.approval === true
      ? { approval: { require: ['write_file'], fallback: 'deny' } }
      : {}),
    profiles: Object.fromEntries(
      profiles.map((profile) => [
        profile.name,
        { enabledToolsets: profile.servers.map((server) => `mcp-${server}`), token: profile.token },
      ]),
    ),
  };
  const file = join(folder, 'gateway.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return { file, workspace, memoryFile, profiles, adminToken: token('admin'), servers };
}

/** The context window every run's gateway assembles for. */
export const LOAD_CONTEXT_WINDOW = 128_000;

/**
 * The options every run starts its gateway processes with, for a written config.
 *
 * @param config - from {@link writeLoadConfig}
 * @returns the config file, the admin token, the context window and the start timeout
 * @throws nothing
 */
export function gatewayOptionsOf(config: LoadConfig) {
  return {
    config: config.file,
    token: config.adminToken,
    contextWindow: LOAD_CONTEXT_WINDOW,
    timeoutMs: 60_000,
  };
}
