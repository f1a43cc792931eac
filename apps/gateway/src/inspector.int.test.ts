import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE_ENV, GATEWAY_CONFIG, WORKSPACE } from './__fixtures__/paths.js';
import { listeningUrl, stopProcess } from './__fixtures__/processes.js';

const require = createRequire(import.meta.url);
const INSPECTOR_CLI = join(
  dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build/cli.js',
);
// The inspector finds its own package.json through a path relative to its cwd
// ("../package.json" must exist there); run it from a folder of this app.
const INSPECTOR_CWD = dirname(CLI);

// `mcp-inspector-cli --cli <command> [inspector flags] -- <server args>`: the server's own
// flags go after `--`, or the inspector would take `--config` for its own; and `--method`
// goes last, since the variadic `--tool-arg` would swallow the server's arguments.

interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runInspector(args: readonly string[]): Promise<InspectorRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR_CLI, ...args],
      {
        cwd: INSPECTOR_CWD,
        env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1' },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

function inspector(args: readonly string[]): Promise<InspectorRun> {
  return runInspector([
    '--cli',
    process.execPath,
    ...args,
    '--',
    CLI,
    'serve',
    '--config',
    GATEWAY_CONFIG,
    '--context-window',
    '200000',
  ]);
}

function toolNames(run: InspectorRun): string[] {
  return (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
}

/** `tools/list` through the Inspector, the server named in an Inspector config file. */
function inspectorFromFile(file: string, flags: readonly string[] = []): Promise<InspectorRun> {
  return runInspector([
    '--cli',
    '--config',
    file,
    '--server',
    'tool-search',
    ...flags,
    '--method',
    'tools/list',
  ]);
}

/** The installed bin (`bin/tool-search-gateway.js`), as an Inspector config file names it. */
const BIN = fileURLToPath(new URL('../bin/tool-search-gateway.js', import.meta.url));

describe.concurrent('a third-party client: the MCP Inspector CLI', () => {
  it('lists the gateway tools', async () => {
    const run = await inspector(['--method', 'tools/list']);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(run)).toEqual(
      expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']),
    );
  });

  it('calls tool_search and tool_call on the gateway', async () => {
    const search = await inspector([
      '--tool-name',
      'tool_search',
      '--tool-arg',
      'query=list the files in a directory',
      '--method',
      'tools/call',
    ]);
    expect(search.code, search.stderr).toBe(0);
    const searchResult = JSON.parse(search.stdout) as { content: { text: string }[] };
    expect(searchResult.content[0]?.text).toContain('list_directory');

    const call = await inspector([
      '--tool-name',
      'tool_call',
      '--tool-arg',
      'name=read_text_file',
      `arguments={"path":${JSON.stringify(join(WORKSPACE, 'notes.md'))}}`,
      '--method',
      'tools/call',
    ]);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('The gateway read this file through tool_call.');
  });
});

// The recipe of docs/guides/gateway.md ("MCP Inspector"): the Inspector's own `--config`
// file names the gateway with its args and env, so the gateway's `--config` never meets
// the Inspector's flag parser; over HTTP the token goes in `--header`.
describe('the MCP Inspector recipe: an Inspector config file', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'gateway-inspector-'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('lists the gateway tools over stdio, the gateway named with its args and env', async () => {
    const file = join(folder, 'inspector-stdio.json');
    const server = {
      command: process.execPath,
      args: [BIN, 'serve', '--config', GATEWAY_CONFIG, '--context-window', '200000'],
      env: FIXTURE_ENV,
    };
    await writeFile(file, JSON.stringify({ mcpServers: { 'tool-search': server } }));
    const run = await inspectorFromFile(file);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(run)).toEqual(
      expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']),
    );
  });

  describe('over Streamable HTTP', () => {
    const token = 'inspector-token-0123456789abcdef';
    let child: ChildProcess;
    let file: string;

    beforeAll(async () => {
      child = spawn(
        process.execPath,
        [BIN, 'serve', '--config', GATEWAY_CONFIG, '--transport', 'http', '--port', '0'],
        {
          env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1', TOOL_SEARCH_GATEWAY_TOKEN: token },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const url = await listeningUrl(child);
      file = join(folder, 'inspector-http.json');
      const server = { type: 'streamable-http', url: url.href };
      await writeFile(file, JSON.stringify({ mcpServers: { 'tool-search': server } }));
    });

    afterAll(() => stopProcess(child));

    it('lists the tools with the token in --header', async () => {
      const run = await inspectorFromFile(file, ['--header', `Authorization: Bearer ${token}`]);
      expect(run.code, run.stderr).toBe(0);
      expect(toolNames(run)).toContain('tool_search');
    });

    it('is refused without the token', async () => {
      const run = await inspectorFromFile(file);
      expect(run.code).not.toBe(0);
    });
  });
});
