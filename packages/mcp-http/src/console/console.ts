import { fileURLToPath } from 'node:url';
import { describeError } from '@tool-search/core/internal';
import type { GatewayActivity } from '@tool-search/mcp';
import type { HttpRequestContext, HttpStep } from '../http/http-chain.js';
import type { HttpMount, HttpMountContext } from '../http/http-mount.js';
import { CONSOLE_CHANGES, CONSOLE_READS, type ConsoleRequest } from './console-api.js';
import { serveAsset } from './console-assets.js';
import { ConsoleAuth, sessionCookie } from './console-auth.js';
import { isSecure, readJsonBody, sendError, sendJson } from './console-http.js';
import { SIGN_IN_CALLBACK_PATH, signInCallback } from './console-sign-in-flow.js';
import { ConsoleState, type GatewayConsoleOptions } from './console-state.js';

/** The console's built front end, shipped in this package (`dist/console-ui`). */
const CONSOLE_ASSETS_DIRECTORY = fileURLToPath(new URL('../../dist/console-ui/', import.meta.url));

export type { GatewayConsoleOptions } from './console-state.js';

/** The console's path. */
export const CONSOLE_PATH = '/console';
const API = `${CONSOLE_PATH}/api/`;

/** The operator console of a gateway: an HTTP mount, fed the gateway's activity. */
export interface GatewayConsole extends HttpMount {
  /** Hands it a line of the gateway's activity feed (`onActivity`). */
  record(activity: GatewayActivity): void;
  /** Ends its event streams and timers. */
  close(): void;
}

async function signIn(auth: ConsoleAuth, { req, res }: HttpRequestContext): Promise<void> {
  const token = (await readJsonBody(req))?.['token'];
  if (!auth.enabled) {
    sendError(
      res,
      401,
      'This gateway has no token, so nobody can sign in to the console: give it a token (--token, or a profile with "operator": true and a token).',
    );
    return;
  }
  const principal = typeof token === 'string' ? auth.operatorOf(token) : undefined;
  if (principal === undefined) {
    sendError(
      res,
      401,
      'That token does not sign in to the console: use the gateway token or the token of a profile with "operator": true.',
    );
    return;
  }
  const { cookie, csrf } = auth.signIn(principal);
  sendJson(res, 200, { principal, csrf }, { 'set-cookie': sessionCookie(cookie, isSecure(req)) });
}

/** Answers one request under `/console/api/`: sign-in, then reads and CSRF-checked changes. */
async function answerApi(
  state: ConsoleState,
  auth: ConsoleAuth,
  context: HttpRequestContext,
): Promise<void> {
  const { req, res, url } = context;
  const route = url.pathname.slice(API.length);
  if (req.method === 'POST' && route === 'login') return signIn(auth, context);
  const operator = auth.operatorOfRequest(req);
  // A sign-out ends the cookie on every replica (through the store), not only in this browser.
  if (operator === undefined || (await state.options.store.isSignInRevoked(operator.nonce))) {
    return sendError(res, 401, 'Sign in first.');
  }
  const request: ConsoleRequest = { req, res, url, state, operator: operator.principal };
  if (req.method === 'GET') {
    if (route === 'me') {
      return sendJson(res, 200, { principal: operator.principal, csrf: auth.csrfOf(operator) });
    }
    const read = Object.hasOwn(CONSOLE_READS, route) ? CONSOLE_READS[route] : undefined;
    return read === undefined ? sendError(res, 404, 'No such console page.') : read(request);
  }
  const known = route === 'logout' || Object.hasOwn(CONSOLE_CHANGES, route);
  if (req.method !== 'POST' || !known) return sendError(res, 405, 'Not allowed.');
  if (!auth.csrfMatches(req, operator)) {
    return sendError(res, 403, 'The CSRF token is missing or wrong: reload the console.');
  }
  if (route === 'logout') {
    await state.options.store.revokeSignIn(operator.nonce, operator.expiresAt);
    return sendJson(res, 200, {}, { 'set-cookie': sessionCookie('', isSecure(req)) });
  }
  return CONSOLE_CHANGES[route]!(request);
}

function consoleStep(state: ConsoleState, mountContext: HttpMountContext): HttpStep {
  const auth = new ConsoleAuth(
    mountContext.tokens,
    state.options.profiles ?? (() => state.options.config.profiles),
  );
  return async (context) => {
    const { req, res, url } = context;
    try {
      if (url.pathname.startsWith(API)) await answerApi(state, auth, context);
      else if (url.pathname === SIGN_IN_CALLBACK_PATH && req.method === 'GET') {
        await signInCallback(state.options.signInFlow, req, res, url);
      } else if (req.method !== 'GET' && req.method !== 'HEAD') sendError(res, 405, 'Not allowed.');
      else if (url.pathname === CONSOLE_PATH) {
        res.writeHead(308, { location: `${CONSOLE_PATH}/` });
        res.end();
      } else {
        await serveAsset(
          res,
          state.options.assetsDirectory ?? CONSOLE_ASSETS_DIRECTORY,
          url.pathname.slice(CONSOLE_PATH.length + 1),
        );
      }
    } catch (error) {
      sendError(res, 503, describeError(error));
    }
    return true;
  };
}

/**
 * Creates the operator console of a gateway: mount it on the gateway's HTTP listener
 * (`mounts` of {@link GatewayHttpOptions}) and feed it the gateway's `onActivity`. It
 * serves the built front end from `assetsDirectory` under `/console/` and its JSON API
 * under `/console/api/`: sign-in with the gateway token or an `operator: true`
 * profile's token (a signed, HttpOnly, SameSite=Strict cookie, Secure over TLS), a CSRF
 * token checked on every change, and a strict Content-Security-Policy on every answer.
 *
 * @param options - see {@link GatewayConsoleOptions}
 * @returns the console
 * @throws {@link ToolSearchError} `invalid_config` for bad toolset definitions
 */
export function createGatewayConsole(options: GatewayConsoleOptions): GatewayConsole {
  const state = new ConsoleState(options);
  return {
    prefix: CONSOLE_PATH,
    step: (mountContext) => consoleStep(state, mountContext),
    record: (activity) => state.record(activity),
    close: () => state.close(),
  };
}
