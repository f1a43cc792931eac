import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { followAsBrowser } from '@tool-search/mcp/testing';
import { expect } from 'vitest';
import { CLI, FIXTURE_ENV } from './paths.js';

/** Everything a test's processes printed, to grep for tokens. */
export const printed: string[] = [];

/**
 * Runs `login` as an operator would, and acts as the person's browser: waits for the
 * `Open this URL to sign in:` line, opens it and follows the redirect.
 *
 * @param args - the flags after `login`
 * @param env - extra environment
 * @returns the exit code, what it printed, and the status of the browser's last page
 */
export function loginAsPerson(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; page?: number }> {
  const child = spawn(process.execPath, [CLI, 'login', ...args], {
    env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let page: Promise<number> | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const match = /^Open this URL to sign in: (\S+)$/m.exec(stdout);
    if (match && page === undefined) page = followAsBrowser(match[1]!);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => {
    child.once('exit', async (code) => {
      printed.push(stdout, stderr);
      const status = await page?.catch(() => -1);
      resolve({ code, stdout, stderr, ...(status === undefined ? {} : { page: status }) });
    });
  });
}

/** A `serve --transport http` child: its URL, what it printed, and how to stop it. */
export interface ServeChild {
  url: URL;
  child: ChildProcess;
  stderr(): string;
}

/**
 * Starts `serve --transport http --port 0 --token <token>` and waits for its URL.
 *
 * @param args - more flags (`--config`, `--store`, ...)
 * @param env - extra environment
 */
export function startServe(
  args: readonly string[],
  env: Record<string, string>,
): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--transport', 'http', '--port', '0', ...args],
    {
      env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => printed.push(chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      printed.push(chunk.toString());
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve({ url: new URL(match[1]!), child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

/** An MCP client of the gateway (bearer `token`), and a call that returns the text. */
export async function connectGateway(url: URL, token: string) {
  const client = new Client({ name: 'sign-in-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return {
    client,
    async call(name: string): Promise<{ text: string; isError: boolean }> {
      const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      printed.push(JSON.stringify(result));
      return { text, isError: result.isError === true };
    },
  };
}

/**
 * Signs in on the console's API with a token and returns a reader of its answers (each
 * answer's text joins {@link printed}, for the token grep).
 *
 * @param url - any URL of the gateway
 * @param token - the console token (the gateway's or a profile's)
 * @returns `get(path)`: the status and text of `GET /console/api/<path>`
 */
export async function consoleApi(url: URL, token: string) {
  const login = await fetch(new URL('/console/api/login', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return async (path: string) => {
    const response = await fetch(new URL(`/console/api/${path}`, url), { headers: { cookie } });
    const text = await response.text();
    printed.push(text);
    return { status: response.status, text };
  };
}
