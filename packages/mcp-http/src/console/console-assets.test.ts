import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAsset } from './console-assets.js';

describe('serveAsset', () => {
  const built = mkdtempSync(join(tmpdir(), 'console-assets-'));
  const empty = mkdtempSync(join(tmpdir(), 'console-empty-'));
  writeFileSync(join(built, 'index.html'), '<!doctype html><title>Console</title>');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const directory = url.searchParams.get('from') === 'empty' ? empty : built;
    void serveAsset(res, directory, url.pathname.slice(1));
  });
  let base = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(built, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it('serves the page of a built front end with its policy headers', async () => {
    const page = await fetch(base);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<title>Console</title>');
  });

  it('says how to build the front end when the folder has none, under the same policy', async () => {
    const page = await fetch(`${base}?from=empty`);
    expect(page.status).toBe(503);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('pnpm build');
  });

  it('serves nothing outside its folder, and nothing of an unknown type', async () => {
    expect((await fetch(`${base}..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetch(`${base}index.exe`)).status).toBe(404);
  });
});
