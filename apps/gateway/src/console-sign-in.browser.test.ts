import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, signIn } from './__fixtures__/console.js';
import { stopProcess } from './__fixtures__/processes.js';
import { loginAsPerson, type ServeChild, startServe } from './__fixtures__/sign-in.js';

const TOKEN = 'console-sign-in-token-0123456789';

describe("the console's Sign-in page", () => {
  let docs: StandIn;
  let tracker: StandIn;
  let workspace: string;
  let served: ServeChild;
  let browser: Browser;

  beforeAll(async () => {
    docs = await startOAuthStandIn();
    tracker = await startOAuthStandIn();
    workspace = mkdtempSync(join(tmpdir(), 'gw-console-sign-in-'));
    const config = join(workspace, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          docs: { url: docs.mcpUrl, auth: 'oauth' },
          tracker: { url: tracker.mcpUrl, auth: 'oauth' },
        },
        console: { enabled: true },
      }),
    );
    const env = { TOOL_SEARCH_STATE_DIR: join(workspace, 'state') };
    const login = await loginAsPerson(['docs', '--config', config], env);
    expect(login.code, login.stderr).toBe(0);
    served = await startServe(['--config', config, '--token', TOKEN], env);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (served) await stopProcess(served.child);
    await docs?.close();
    await tracker?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('shows each server signed in or not, with the login command for the one that needs it, and no token', async () => {
    const page = await browser.newPage();
    const consoleUrl = new URL('/console/', served.url).href;
    await signIn(page, consoleUrl, TOKEN);
    await page.getByRole('link', { name: 'Sign-in' }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    const rows = table.getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    const cells = (row: number) => rows.nth(row).getByRole('cell').allTextContents();
    const [docsRow, trackerRow] = [await cells(1), await cells(2)];
    expect(docsRow.slice(0, 3)).toEqual(['docs', 'the gateway', 'signed in']);
    expect(docsRow[3]).toMatch(/^in \d+ min$/);
    expect(trackerRow.slice(0, 3)).toEqual(['tracker', 'the gateway', 'needs sign-in']);
    expect(trackerRow.at(-1)).toBe('Sign in or tool-search-gateway login tracker --config <file>');
    const html = await page.content();
    for (const token of docs.issued) expect(html).not.toContain(token);
    await page.close();
  });
});
