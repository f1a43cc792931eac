import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, chromium, type Page } from 'playwright-core';

/** The built front end of the console (`pnpm build` makes it). */
export const CONSOLE_ASSETS = fileURLToPath(
  new URL('../../../../packages/mcp-http/dist/console-ui/', import.meta.url),
);

/** The hostile upstream of the mcp package's fixtures. */
export const HOSTILE_SERVER = fileURLToPath(
  new URL('../../../../packages/mcp/src/__fixtures__/hostile-server.mjs', import.meta.url),
);

/** The console's own upstream (a lookup that can fail, a write), over stdio. */
export const CONSOLE_UPSTREAM = fileURLToPath(new URL('./console-upstream.mjs', import.meta.url));

/** The slow and unreliable upstream of the mcp package's fixtures. */
export const SLOW_SERVER = fileURLToPath(
  new URL('../../../../packages/mcp/src/__fixtures__/slow-server.mjs', import.meta.url),
);

/** Debian's Chromium, headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Signs in on the console's page with a token; resolves once the pages are there. */
export async function signIn(page: Page, consoleUrl: string, token: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console pages' }).waitFor();
}

/**
 * An MCP client over Streamable HTTP that declares no elicitation: it cannot be asked
 * about a call, as most clients today.
 */
export async function plainClient(url: string, token: string) {
  const client = new Client({ name: 'console-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args }, undefined, {
      timeout: 60_000,
    })) as CallToolResult;
  return { client, call };
}

/** The text of a tool result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}
