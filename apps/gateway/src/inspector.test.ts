import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, FIXTURE_ENV, GATEWAY_CONFIG, WORKSPACE } from './__fixtures__/paths.js';

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

function inspector(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        INSPECTOR_CLI,
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
      ],
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

describe.concurrent('a third-party client: the MCP Inspector CLI', () => {
  it('lists the gateway tools', async () => {
    const run = await inspector(['--method', 'tools/list']);
    expect(run.code, run.stderr).toBe(0);
    const names = (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map(
      (tool) => tool.name,
    );
    expect(names).toEqual(expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']));
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
