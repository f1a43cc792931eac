import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { securityHeaders } from './console-http.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

/** The page shown when the console's front end is not there (the app was not built). */
const MISSING = `<!doctype html><meta charset="utf-8"><title>Console</title>
<p>The console's front end is not built: run <code>pnpm build</code> in packages/mcp-http.</p>`;

/**
 * Serves the console's front end (built files) from a folder: `index.html` for the
 * console's own path, other files by name; nothing outside the folder.
 *
 * @param res - the response
 * @param directory - the folder of the built front end, if any
 * @param relative - the path below `/console/` (`''` for the page itself)
 * @returns once answered
 */
export async function serveAsset(
  res: ServerResponse,
  directory: string | undefined,
  relative: string,
): Promise<void> {
  const name = relative === '' ? 'index.html' : relative;
  const type = TYPES[extname(name)];
  const path = directory === undefined ? undefined : normalize(join(directory, name));
  const inside = directory !== undefined && path?.startsWith(normalize(directory + sep)) === true;
  const body =
    type === undefined || !inside || path === undefined
      ? undefined
      : await readFile(path).catch(() => undefined);
  if (body === undefined) {
    const page = relative === '';
    res.writeHead(page ? 503 : 404, {
      ...securityHeaders(),
      'content-type': page ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
    });
    res.end(page ? MISSING : 'Not found');
    return;
  }
  res.writeHead(200, {
    ...securityHeaders(),
    'content-type': type!,
    'cache-control': 'no-cache',
  });
  res.end(body);
}
