import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { writeToolReview } from '@tool-search/mcp/review';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_ASSETS,
  HOSTILE_SERVER,
  launchChromium,
  plainClient,
  SLOW_SERVER,
  signIn,
  textOf,
} from './__fixtures__/console.js';

const GATEWAY_TOKEN = 'console-gateway-token-0123456789';
const OPERATOR_TOKEN = 'console-operator-token-0123456789';
const AGENT_TOKEN = 'console-agent-token-0123456789ab';
const MARKUP = `<img src=x onerror="alert('img')"><script>alert('script')</script><b>bold</b>`;

/** In the page: the fields without a label and the buttons without a name. */
const UNNAMED_CONTROLS = `[
  ...[...document.querySelectorAll('input, select')]
    .filter((field) => field.labels.length === 0)
    .map((field) => field.id || field.outerHTML),
  ...[...document.querySelectorAll('button')]
    .filter((button) => (button.getAttribute('aria-label') ?? button.textContent).trim() === '')
    .map((button) => button.outerHTML),
]`;

/** The inbox card of the call whose arguments hold `text`. */
const approvalCard = (page: Page, text: string) =>
  page.locator('article[data-approval]', { hasText: text });

describe('the operator console, in Chromium', () => {
  let folder: string;
  let gateway: StartedGateway;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleUrl: string;
  const dialogs: string[] = [];
  const foreignRequests: string[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tool-search-console-'));
    const config = parseGatewayConfig({
      mcpServers: {
        hostile: {
          command: process.execPath,
          args: [HOSTILE_SERVER],
          env: { HOSTILE_STATE_FILE: join(folder, 'hostile-state.json') },
        },
        // Fails its first start: the pool gives up on it until someone asks again.
        flaky: {
          command: process.execPath,
          args: [SLOW_SERVER],
          env: { SLOW_COUNTER_FILE: join(folder, 'flaky-starts'), SLOW_FAIL_ON: '1' },
        },
      },
      approval: { require: ['hostile_echo'], via: 'console', timeoutMs: 60_000 },
      review: { file: join(folder, 'tool-review.json'), hold: 'changed' },
      profiles: {
        ops: { token: OPERATOR_TOKEN, operator: true },
        agent: { token: AGENT_TOKEN },
      },
      console: { enabled: true },
    });
    gateway = await startGateway({
      config,
      http: { port: 0, token: GATEWAY_TOKEN },
      console: { assetsDirectory: CONSOLE_ASSETS },
    });
    await gateway.ready();
    // Every tool as it is now is accepted: a later change of one is held.
    await writeToolReview(
      join(folder, 'tool-review.json'),
      new Map(
        gateway.pool
          .fingerprints()
          .map((item) => [`${item.server}/${item.name}`, item.fingerprint]),
      ),
    );
    consoleUrl = new URL('/console/', gateway.url).href;
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    const own = new URL(consoleUrl).origin;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== own) foreignRequests.push(request.url());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a token that is not an operator’s, then signs in with one', async () => {
    await page.goto(consoleUrl);
    await page.getByLabel('Token').fill(AGENT_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('does not sign in');
    await signIn(page, consoleUrl, OPERATOR_TOKEN);
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'tool_search_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('lets an operator approve a call of a client without elicitation, which then gets the result', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const pending = agent.call('hostile_echo', { message: MARKUP });
    await page.goto(`${consoleUrl}#approvals`);
    const card = approvalCard(page, 'onerror');
    await card.waitFor();
    // The whole arguments, as they will run, shown as text.
    expect(JSON.parse((await card.locator('pre').textContent()) ?? '')).toEqual({
      message: MARKUP,
    });
    await card.getByRole('button', { name: 'Allow once: hostile_echo' }).click();
    const result = await pending;
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe(`hostile echo: ${MARKUP}`);
    await agent.client.close();
  });

  it('sends a denial from the console to the client as a denial', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const pending = agent.call('hostile_echo', { message: 'please' });
    await page.goto(`${consoleUrl}#approvals`);
    // By keyboard: the answer buttons are real buttons, reachable and pressed with Enter.
    await approvalCard(page, 'please').getByRole('button', { name: 'Deny: hostile_echo' }).focus();
    await page.keyboard.press('Enter');
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('An operator denied the call');
    await agent.client.close();
  });

  it('changes nothing for a request without the cookie or with a wrong CSRF token', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const pending = agent.call('hostile_echo', { message: 'forged?' });
    await page.goto(`${consoleUrl}#approvals`);
    await approvalCard(page, 'forged?').waitFor();
    const [item] = await gateway.store.listPendingApprovals();
    const answer = { id: item!.id, decision: 'allow-once' };
    const api = new URL('api/approvals/answer', consoleUrl).href;
    const noCookie = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': 'x' },
      body: JSON.stringify(answer),
    });
    expect(noCookie.status).toBe(401);
    // From the signed-in page itself, with a wrong token in the header.
    const wrongCsrf = await page.evaluate(
      async ([url, body]) => {
        const response = await fetch(url!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': 'wrong' },
          body: body!,
        });
        return response.status;
      },
      [api, JSON.stringify(answer)],
    );
    expect(wrongCsrf).toBe(403);
    const withoutCsrf = await page.evaluate(
      async ([url, body]) => {
        const response = await fetch(url!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body!,
        });
        return response.status;
      },
      [api, JSON.stringify(answer)],
    );
    expect(withoutCsrf).toBe(403);
    expect((await gateway.store.listPendingApprovals()).map((entry) => entry.id)).toEqual([
      item!.id,
    ]);
    await approvalCard(page, 'forged?').getByRole('button', { name: 'Deny: hostile_echo' }).click();
    expect((await pending).isError).toBe(true);
    await agent.client.close();
  });

  it('shows a call in the live feed', async () => {
    await page.goto(`${consoleUrl}#activity`);
    await page.locator('#activity-rows').waitFor({ state: 'attached' });
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    await agent.call('hostile_calls');
    await page.locator('#activity-rows tr', { hasText: 'hostile_calls' }).first().waitFor();
    await page.getByLabel('Filter').fill('hostile_calls');
    expect(await page.locator('#activity-rows tr:not([hidden])').count()).toBeGreaterThan(0);
    await agent.client.close();
  });

  it('makes a changed tool callable once accepted, and shows its hostile description as text', async () => {
    await page.goto(`${consoleUrl}#tools`);
    const review = page.locator('[data-review="hostile/hostile_echo"]');
    expect(await review.textContent()).toBe('accepted');
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    await agent.call('hostile_mutate', { description: MARKUP });
    const listed = async () => (await agent.client.listTools()).tools.map((tool) => tool.name);
    await expect.poll(listed, { timeout: 10_000 }).not.toContain('hostile_echo');
    await page.reload();
    await expect.poll(() => review.textContent(), { timeout: 10_000 }).toBe('changed');
    expect(await page.locator('[data-description="hostile/hostile_echo"]').textContent()).toBe(
      MARKUP,
    );
    // The diff against the accepted definition: the new description added, as text.
    const diff = page.locator('[data-diff="hostile/hostile_echo"]');
    expect(await diff.locator('ins').allTextContents()).toContain(`+ ${MARKUP}\n`);
    expect(await diff.locator('del').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Accept hostile/hostile_echo' }).click();
    await expect.poll(listed, { timeout: 10_000 }).toContain('hostile_echo');
    const pending = agent.call('hostile_echo', { message: 'after review' });
    await page.goto(`${consoleUrl}#approvals`);
    await approvalCard(page, 'after review')
      .getByRole('button', { name: 'Allow once: hostile_echo' })
      .click();
    expect(textOf(await pending)).toBe('hostile echo: after review');
    await agent.client.close();
  });

  it('shows the ranked hits of a query and why each ranked', async () => {
    await page.goto(`${consoleUrl}#search`);
    await page.getByLabel('Query').fill('echo message');
    await page.getByRole('button', { name: 'Search' }).click();
    const first = page.locator('#search-hits li').first();
    await expect.poll(() => first.textContent()).toContain('hostile_echo');
    expect(await first.textContent()).toMatch(/Matched name: echo/);
  });

  it('ends a session from the Sessions page', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const before = gateway.server.sessions().length;
    await page.goto(`${consoleUrl}#sessions`);
    const id = gateway.server.sessions().at(-1)!.id;
    await page.getByRole('button', { name: `End session ${id.slice(0, 8)}` }).click();
    await expect.poll(() => gateway.server.sessions().length).toBe(before - 1);
    await expect(agent.call('hostile_calls')).rejects.toThrow();
  });

  it('reconnects an upstream the pool gave up on', async () => {
    const flaky = () => gateway.pool.status().find((server) => server.name === 'flaky')?.state;
    expect(flaky()).toBe('failed');
    await page.goto(`${consoleUrl}#sessions`);
    await page.getByRole('button', { name: 'Reconnect flaky' }).click();
    await expect.poll(flaky, { timeout: 10_000 }).toBe('ready');
  });

  it('runs nothing a hostile upstream or client sent: no dialog, no request elsewhere, no element', async () => {
    for (const name of ['overview', 'approvals', 'activity', 'tools', 'search', 'sessions']) {
      await page.goto(`${consoleUrl}#${name}`);
      await page.locator('main h2').first().waitFor();
      // Every field has a label and every button a name, for keyboard and screen readers.
      const unnamed = await page.evaluate(UNNAMED_CONTROLS);
      expect(unnamed).toEqual([]);
    }
    await page.goto(`${consoleUrl}#tools`);
    await page.locator('[data-review="hostile/hostile_echo"]').waitFor();
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(foreignRequests).toEqual([]);
    const response = await fetch(consoleUrl);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
