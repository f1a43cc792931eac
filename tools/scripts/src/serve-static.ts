import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** A static file server bound to 127.0.0.1 on a free port. */
export interface StaticServer {
  /** The origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

/**
 * Serves a folder over HTTP on 127.0.0.1, the way a static host would: `/` and
 * folder paths serve their `index.html`, unknown paths answer 404, and paths
 * that escape the folder answer 403.
 *
 * @param root - The folder to serve.
 * @returns The running server.
 * @throws Error when the port cannot be bound.
 */
export async function serveStatic(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      let path = normalize(join(base, decodeURIComponent(url.pathname)));
      if (path !== base && !path.startsWith(base + sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      let info = await stat(path).catch(() => undefined);
      if (info?.isDirectory()) {
        path = join(path, 'index.html');
        info = await stat(path).catch(() => undefined);
      }
      if (!info?.isFile()) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      response.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
        'content-length': info.size,
      });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      createReadStream(path).pipe(response);
    } catch {
      response.writeHead(400).end('bad request');
    }
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
