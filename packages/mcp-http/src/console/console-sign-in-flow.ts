// The console's "Sign in" for an upstream server: the operator (or an operator profile,
// for itself) starts it, the browser goes to the authorization server, and the redirect
// comes back to the gateway's own route, `/console/sign-in/callback`. The sign-in is bound
// to the browser that started it (a cookie of its own, SameSite=Lax so that the redirect
// brings it), used once, and expires; the tokens are stored as `login` stores them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { isLoopbackHost } from '../http/http-validation.js';
import { isSecure, readJsonBody, securityHeaders, sendError, sendJson } from './console-http.js';
import type { ConsoleRequest } from './console-request.js';
import type { ConsoleSignInFlow } from './console-state.js';

/** The route the authorization server sends the browser back to. */
export const SIGN_IN_CALLBACK_PATH = '/console/sign-in/callback';
/** The cookie that binds a started sign-in to its browser. */
export const SIGN_IN_BINDING_COOKIE = 'tool_search_sign_in';

function bindingCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SIGN_IN_BINDING_COOKIE}=${value}; Path=${SIGN_IN_CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

function page(res: ServerResponse, status: number, text: string, secure: boolean): void {
  res.writeHead(status, {
    ...securityHeaders(),
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The binding is spent either way.
    'set-cookie': bindingCookie('', 0, secure),
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>tool-search gateway</title><p role="status">${escapeHtml(text)}</p><p><a href="/console/#sign-ins">Back to the console</a></p>\n`,
  );
}

/**
 * `POST /console/api/sign-ins/start` `{ server, profile? }`: starts a sign-in whose redirect
 * comes back to this gateway, and answers the URL to open. The gateway token may start one
 * for the gateway or any profile; an operator profile only for itself.
 */
export async function startSignIn({ req, res, state, operator }: ConsoleRequest): Promise<void> {
  const flow = state.options.signInFlow;
  if (flow === undefined) {
    sendError(res, 404, 'This gateway does not start sign-ins from the console.');
    return;
  }
  const body = await readJsonBody(req);
  const server = body?.['server'];
  const profile = body?.['profile'] ?? undefined;
  if (typeof server !== 'string' || (profile !== undefined && typeof profile !== 'string')) {
    sendError(res, 400, 'Send { server: "<name>", profile?: "<profile>" }.');
    return;
  }
  const profiles = state.options.profiles?.() ?? state.options.config.profiles;
  if (profile !== undefined && !Object.hasOwn(profiles, profile)) {
    sendError(res, 404, `No profile '${profile}'.`);
    return;
  }
  const own = operator.startsWith('profile:') ? operator.slice('profile:'.length) : undefined;
  if (own !== undefined && profile !== own) {
    sendError(res, 403, `Profile '${own}' may start only its own sign-ins.`);
    return;
  }
  const secure = isSecure(req);
  const host = (req.headers.host ?? '').toLowerCase();
  // The redirect returns to the host this request named: only one the operator listed (or
  // a loopback name) may be, or a forged Host would send another person's code elsewhere.
  if (
    !isLoopbackHost(host.replace(/:\d+$/, '')) &&
    state.options.callbackHosts?.includes(host) !== true
  ) {
    sendError(
      res,
      400,
      `A sign-in from the console returns to the host you reached it by, and '${host || '(none)'}' is not one of the listener's allowedHosts: list it there, or run \`tool-search-gateway login\`.`,
    );
    return;
  }
  const redirectUrl = `${secure ? 'https' : 'http'}://${host}${SIGN_IN_CALLBACK_PATH}`;
  try {
    const started = await flow.start({ server, profile, owner: operator, redirectUrl });
    const maxAge = Math.max(1, Math.round((started.expiresAt - Date.now()) / 1000));
    sendJson(
      res,
      200,
      { url: started.url.href, expiresAt: started.expiresAt },
      { 'set-cookie': bindingCookie(started.binding, maxAge, secure) },
    );
  } catch (error) {
    const busy = ToolSearchError.isInstance(error) && error.data?.field === 'pending';
    const unknown = ToolSearchError.isInstance(error) && error.code === 'invalid_argument';
    sendError(res, busy ? 429 : unknown ? 409 : 502, describeError(error));
  }
}

/**
 * `GET /console/sign-in/callback`: the authorization server's redirect. Needs no console
 * session (the redirect is a navigation from another site); it needs the `state` of a
 * sign-in this gateway is waiting for and the binding cookie of the browser that started it.
 */
export async function signInCallback(
  flow: ConsoleSignInFlow | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const secure = isSecure(req);
  if (flow === undefined) {
    page(res, 404, 'This gateway does not take sign-ins on this route.', secure);
    return;
  }
  const outcome = await flow.callback(url.searchParams, cookieOf(req, SIGN_IN_BINDING_COOKIE));
  if (!outcome.ok) {
    page(res, outcome.status, `Sign-in refused: ${outcome.message}`, secure);
    return;
  }
  const who = outcome.profile === undefined ? '' : ` for profile ${outcome.profile}`;
  page(res, 200, `Signed in to ${outcome.server}${who}. You can close this tab.`, secure);
}
