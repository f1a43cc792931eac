import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolSearchError } from '@tool-search/core';

/** What the authorization server sent back to the loopback redirect. */
export interface AuthorizationResponse {
  code: string;
  /** The `iss` parameter (RFC 9207), when sent. */
  iss?: string;
}

/** A loopback listener for the authorization redirect. */
export interface CallbackServer {
  /** The redirect URI to register and send (`http://127.0.0.1:<port>/callback`). */
  readonly redirectUrl: string;
  /**
   * Waits for the redirect whose `state` is `expected()` at the time it comes. A redirect
   * with another `state` is answered 400 and ignored (the wait goes on); one with `error`
   * ends the wait.
   */
  next(expected: () => string | undefined): Promise<AuthorizationResponse>;
  close(): Promise<void>;
}

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>tool-search gateway</title><p>${text.replace(/[<>&]/g, '')}</p>\n`;

/**
 * Listens on a loopback port for the authorization server's redirect.
 *
 * @param options.port - the port; 0 picks a free one
 * @param options.server - the MCP server's name (for the page the browser shows)
 * @returns the listener
 * @throws the socket's error when the port is taken
 */
export async function openCallbackServer(options: {
  port: number;
  server: string;
}): Promise<CallbackServer> {
  let waiter:
    | {
        expected: () => string | undefined;
        resolve: (response: AuthorizationResponse) => void;
        reject: (error: Error) => void;
      }
    | undefined;
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback' || request.method !== 'GET') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const params = url.searchParams;
    const expected = waiter?.expected();
    if (waiter === undefined || expected === undefined || params.get('state') !== expected) {
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE('This sign-in link does not belong to the sign-in under way (state mismatch).'));
      return;
    }
    const current = waiter;
    waiter = undefined;
    const error = params.get('error');
    const code = params.get('code');
    if (error !== null || code === null) {
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE(`Sign-in to ${options.server} failed.`));
      current.reject(
        new ToolSearchError(
          'upstream_sign_in_failed',
          `server '${options.server}': the authorization server answered ${error ?? 'no code'}${params.get('error_description') ? ` (${params.get('error_description')?.slice(0, 200)})` : ''}`,
          { data: { server: options.server } },
        ),
      );
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(PAGE(`Signed in to ${options.server}. You can close this tab.`));
    const iss = params.get('iss');
    current.resolve({ code, ...(iss === null ? {} : { iss }) });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    next(expected) {
      return new Promise((resolve, reject) => {
        waiter = { expected, resolve, reject };
      });
    },
    close() {
      waiter?.reject(new ToolSearchError('upstream_sign_in_failed', 'the sign-in was stopped'));
      waiter = undefined;
      return new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
