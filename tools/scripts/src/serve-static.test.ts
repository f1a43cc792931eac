import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StaticServer, serveStatic } from './serve-static.js';

function rawGet(origin: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const { hostname, port } = new URL(origin);
    const req = request({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      response.on('end', () => done({ status: response.statusCode ?? 0, body }));
    });
    req.once('error', fail);
    req.end();
  });
}

describe('serveStatic', () => {
  let root: string;
  let server: StaticServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'serve-static-'));
    await mkdir(join(root, 'guides'));
    await writeFile(join(root, 'index.html'), '<h1>home</h1>');
    await writeFile(join(root, 'guides', 'index.html'), '<h1>guides</h1>');
    await writeFile(join(root, 'app.js'), 'export {};');
    await writeFile(join(tmpdir(), 'serve-static-secret.txt'), 'secret');
    server = await serveStatic(root);
  });

  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
    await rm(join(tmpdir(), 'serve-static-secret.txt'), { force: true });
  });

  it('listens on 127.0.0.1 only', () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves a folder index for / and for a folder path', async () => {
    const home = await fetch(`${server.origin}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(await home.text()).toBe('<h1>home</h1>');
    expect(await (await fetch(`${server.origin}/guides/`)).text()).toBe('<h1>guides</h1>');
  });

  it('gives scripts a JavaScript content type', async () => {
    const script = await fetch(`${server.origin}/app.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });

  it('answers 404 for a missing file', async () => {
    expect((await fetch(`${server.origin}/nope.html`)).status).toBe(404);
  });

  it('never serves a file outside the folder', async () => {
    // Raw request lines: fetch() would normalise the dots away before sending.
    for (const path of ['/../serve-static-secret.txt', '/%2e%2e/serve-static-secret.txt']) {
      const { status, body } = await rawGet(server.origin, path);
      expect(status).toBe(404); // the URL parser resolves the dots inside the folder
      expect(body).not.toBe('secret');
    }
    // Encoded slashes survive URL parsing and are decoded afterwards: refused.
    const encoded = await rawGet(server.origin, '/guides%2f..%2f..%2fserve-static-secret.txt');
    expect(encoded.status).toBe(403);
    expect(encoded.body).not.toBe('secret');
  });
});
