import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI } from './__fixtures__/paths.js';
import { listeningUrl } from './__fixtures__/processes.js';
import { runCli } from './__fixtures__/run.js';

const HOSTILE = fileURLToPath(
  new URL('../../../packages/mcp/src/__fixtures__/hostile-server.mjs', import.meta.url),
);

/** Bytes a terminal would act on: C0 (but tab and line feed), DEL, C1, bidi controls. */
const DANGEROUS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const directory = mkdtempSync(join(tmpdir(), 'tool-search-untrusted-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let configs = 0;
/** Writes a config into a folder of its own; returns its path. */
function writeConfig(config: Record<string, unknown>): string {
  const folder = join(directory, `config-${++configs}`);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'gateway.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

function hostile(modes: string[], env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: [HOSTILE],
    env: { HOSTILE_MODES: modes.join(','), ...env },
  };
}

/** A server that writes escape codes to stderr and exits: its stderr reaches error text. */
const noisyCrash = {
  command: process.execPath,
  args: [
    '-e',
    "process.stderr.write('boom \\u001b]0;pwned\\u0007 \\u001b[2J \\u009b31m \\u202eevil\\n'); process.exit(3)",
  ],
};

function text(result: unknown): string {
  return (result as CallToolResult).content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

describe('upstream text on the terminal', () => {
  const config = () =>
    writeConfig({
      mcpServers: { hostile: hostile(['escape', 'poison', 'pin']), noisy: noisyCrash },
      toolSearch: { enabled: 'on' },
    });

  it('search prints escape codes of upstream descriptions escaped, never acting', async () => {
    const run = await runCli(['search', 'echo a message', '--config', config()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/hostile_echo/);
    expect(run.stdout).toContain('\\x1b[2J');
    expect(run.stdout).not.toMatch(DANGEROUS);
    expect(run.stderr).not.toMatch(DANGEROUS);
    expect(run.stdout).toMatch(/noisy.*failed/);
  });

  it('inspect prints upstream errors and stderr escaped, never acting', async () => {
    const run = await runCli(['inspect', '--config', config()]);
    expect(run.stdout).toMatch(/noisy\s+failed/);
    expect(run.stdout).not.toMatch(DANGEROUS);
    expect(run.stderr).not.toMatch(DANGEROUS);
  });

  it('serve prints upstream errors and stderr escaped, never acting', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--config', config(), '--transport', 'http', '--port', '0'],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          // serve listens at once; the failed server is reported once its start settles.
          if (/upstream servers settled/.test(stderr)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      expect(stderr).toMatch(/noisy\s+failed: .*boom \\x1b\]0;pwned\\x07/);
      expect(stderr).not.toMatch(DANGEROUS);
      expect(stdout).not.toMatch(DANGEROUS);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('inspect: untrusted definitions', () => {
  it('reports ignored self-pins, cut descriptions, refused schemas and flags poisoning', async () => {
    const run = await runCli([
      'inspect',
      '--config',
      writeConfig({ mcpServers: { hostile: hostile(['pin', 'huge', 'poison']) } }),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/refused\s+hostile\/hostile_huge_schema: .*bytes/);
    expect(run.stdout).toMatch(/refused\s+hostile\/hostile_deep_schema: .*nested deeper/);
    expect(run.stdout).toMatch(
      /cut\s+hostile\/hostile_pinned: description 1,048,592 → 10,000 characters/,
    );
    expect(run.stdout).toMatch(/self-pin ignored\s+hostile\/hostile_pinned/);
    expect(run.stdout).toMatch(/flagged\s+hostile\/hostile_notes: ignore-instructions/);
    expect(run.stdout).toMatch(/hidden-tag/);
    expect(run.stdout).not.toMatch(/flagged\s+hostile\/hostile_(echo|calls)/);
  });
});

describe('inspect --accept and review.hold', () => {
  let child: ChildProcess | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close().catch(() => {});
    child?.kill('SIGTERM');
  });

  it('holds a tool whose definition changed (a rug pull) until inspect --accept', async () => {
    const state = join(directory, 'hostile-state.json');
    const configPath = writeConfig({
      mcpServers: { hostile: hostile([], { HOSTILE_STATE_FILE: state }) },
      toolSearch: { enabled: 'off' },
      review: { hold: 'changed' },
    });
    const reviewFile = join(configPath, '..', 'tool-review.json');

    const first = await runCli(['inspect', '--config', configPath]);
    expect(first.stdout).toMatch(/no review file yet: all 5 tools are new.*inspect --accept/);
    const accepted = await runCli(['inspect', '--config', configPath, '--accept']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/accepted 5 tool definitions into .*tool-review\.json/);
    const file = readFileSync(reviewFile, 'utf8');
    expect(file).toMatch(/^ {4}"hostile\/hostile_echo": "sha256:[0-9a-f]{64}",$/m);
    const again = await runCli(['inspect', '--config', configPath]);
    expect(again.stdout).toMatch(/no new, changed or removed tools/);

    child = spawn(
      process.execPath,
      [CLI, 'serve', '--config', configPath, '--transport', 'http', '--port', '0'],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const serving = child;
    const url = await listeningUrl(serving);
    client = new Client({ name: 'review-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const connected = client;
    const names = async () => (await connected.listTools()).tools.map((tool) => tool.name);
    const until = async (probe: () => Promise<boolean>) => {
      const deadline = Date.now() + 20_000;
      while (!(await probe())) {
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect(await names()).toContain('hostile_echo');

    await connected.callTool({ name: 'hostile_mutate', arguments: {} });
    await until(async () => !(await names()).includes('hostile_echo'));
    const refused = await connected.callTool({ name: 'hostile_echo', arguments: { message: 'x' } });
    expect(refused.isError).toBe(true);

    const review = await runCli(['inspect', '--config', configPath]);
    expect(review.stdout).toMatch(/changed\s+hostile\/hostile_echo/);
    expect(review.stdout).toMatch(/0 new, 1 changed, 0 removed/);
    expect(review.stdout).toMatch(/held\s+hostile\/hostile_echo: .*changed since it was accepted/);
    expect(review.stdout).toMatch(/flagged\s+hostile\/hostile_echo: ignore-instructions/);

    const release = await runCli(['inspect', '--config', configPath, '--accept']);
    expect(release.code).toBe(0);
    await until(async () => (await names()).includes('hostile_echo'));
    const echoed = await connected.callTool({ name: 'hostile_echo', arguments: { message: 'hi' } });
    expect(text(echoed)).toBe('hostile echo: hi');
  }, 90_000);
});
