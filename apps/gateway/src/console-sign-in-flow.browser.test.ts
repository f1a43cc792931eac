import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, signIn } from './__fixtures__/console.js';
import { stopProcess } from './__fixtures__/processes.js';
import { connectGateway, printed, type ServeChild, startServe } from './__fixtures__/sign-in.js';

const TOKEN = 'console-sign-in-flow-token-01234';
const ALICE = 'alice-console-flow-0123456789abc';
const BOB = 'bob-console-flow-0123456789abcde';

describe("a sign-in started from the console, whose redirect lands on the gateway's own route", () => {
  let docs: StandIn;
  let workspace: string;
  let served: ServeChild;
  let browser: Browser;

  /** Starts a profile's sign-in from the Sign-in page and returns the authorization URL. */
  const startFromConsole = async (page: Page, profile: string): Promise<string> => {
    await signIn(page, new URL('/console/', served.url).href, TOKEN);
    await page.getByRole('link', { name: 'Sign-in' }).click();
    const button = page.getByRole('button', { name: `Sign in as ${profile}` });
    await button.waitFor();
    const authorize = page.waitForRequest((request) => request.url().includes('/authorize'));
    await button.click();
    return (await authorize).url();
  };

  beforeAll(async () => {
    docs = await startOAuthStandIn();
    workspace = mkdtempSync(join(tmpdir(), 'gw-console-flow-'));
    const config = join(workspace, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { docs: { url: docs.mcpUrl, auth: { type: 'oauth', perProfile: true } } },
        profiles: { alice: { token: ALICE }, bob: { token: BOB } },
        console: { enabled: true },
      }),
    );
    served = await startServe(['--config', config, '--token', TOKEN], {
      TOOL_SEARCH_STATE_DIR: join(workspace, 'state'),
    });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (served) await stopProcess(served.child);
    await docs?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("signs alice in from the console: the tokens are stored as login stores them, and alice's calls reach the server as her", async () => {
    docs.options.user = 'alice';
    const page = await browser.newPage();
    await startFromConsole(page, 'alice');
    // The authorization server sent the browser back to the gateway's own route.
    await page.waitForURL(/\/console\/sign-in\/callback\?/);
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Signed in to docs for profile alice. You can close this tab.');
    const callback = page.url();
    expect(readdirSync(join(workspace, 'state', 'sign-ins'))).toContain('docs%40alice.json');
    const alice = await connectGateway(served.url, ALICE);
    // A running serve picks the new sign-in up at alice's next use (a refused connection
    // of hers is opened anew at most every 2 s).
    await expect
      .poll(async () => (await alice.call('whoami')).text, { timeout: 10_000, interval: 500 })
      .toBe('you are signed in as alice');
    await alice.client.close();

    // The same redirect again (a replay): refused, nothing changes.
    const replay = await page.goto(callback);
    expect(replay?.status()).toBe(400);
    expect(await page.getByRole('status').textContent()).toContain('Sign-in refused');
    const html = await page.content();
    for (const token of docs.issued) expect(html).not.toContain(token);
    await page.close();
  });

  it("refuses a redirect brought by another browser (another person's state), and a state of the login command", async () => {
    const starter = await browser.newContext();
    const page = await starter.newPage();
    // The starter's browser is stopped at the authorization server: its redirect is taken.
    await page.route('**/authorize*', (route) => route.abort());
    const authorizeUrl = await startFromConsole(page, 'bob');
    const response = await fetch(authorizeUrl, { redirect: 'manual' });
    const redirect = response.headers.get('location')!;
    expect(redirect).toContain('/console/sign-in/callback?');

    const other = await browser.newContext();
    const thief = await other.newPage();
    const stolen = await thief.goto(redirect);
    expect(stolen?.status()).toBe(403);
    // The starter's own browser cannot finish it now either: it was stopped.
    const late = await page.goto(redirect);
    expect(late?.status()).toBe(400);

    const foreign = new URL(redirect);
    foreign.searchParams.set('state', 'a-state-that-the-login-command-made');
    expect((await thief.goto(foreign.href))?.status()).toBe(400);
    await Promise.all([starter.close(), other.close()]);
    for (const line of printed) for (const token of docs.issued) expect(line).not.toContain(token);
  });
});
