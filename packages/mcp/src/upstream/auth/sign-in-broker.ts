// Sign-ins whose redirect lands on the gateway's own HTTP route (the console's "Sign in"),
// not on a loopback port of a `login` process. Each one is bound to who started it: its
// `state` is known only to this broker and the authorization server, its binding (a random
// value the starter's browser keeps in a cookie) must come back with the redirect, and it
// is used once and expires. The sign-in itself is `signInToUpstream`'s, so the tokens are
// stored (and later refreshed) exactly as `login` stores them.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Implementation } from '@modelcontextprotocol/client';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { OAuthUpstreamAuth } from '../../config/upstream-auth-schema.js';
import type { AuthorizationResponse, CallbackServer } from './callback-server.js';
import type { SignInStore, SignInSummary } from './credentials.js';
import { signInToUpstream } from './sign-in.js';

/** How long a started sign-in waits for its redirect, by default: 10 minutes. */
export const DEFAULT_SIGN_IN_TTL_MS = 10 * 60_000;
/** The most sign-ins waiting at once, by default (all starters together). */
export const DEFAULT_MAX_PENDING_SIGN_INS = 16;
/** The most sign-ins one starter has waiting at once. */
const MAX_PENDING_PER_OWNER = 3;

/** Options of {@link createSignInBroker}. */
export interface SignInBrokerOptions {
  /** Where sign-ins are kept (the same store as `login`'s). */
  store: SignInStore;
  /** The sign-in of a server by name: its URL and interactive `auth`; undefined when none. */
  target(
    server: string,
  ): { url: string; auth: OAuthUpstreamAuth; headers?: Record<string, string> } | undefined;
  /** How long a started sign-in waits for its redirect. @defaultValue 600000 */
  ttlMs?: number;
  /** The most sign-ins waiting at once. @defaultValue 16 */
  maxPending?: number;
  /** The deadline of each discovery, registration and token request. @defaultValue 15000 */
  requestTimeoutMs?: number;
  /** How the gateway introduces itself to the server. */
  clientInfo?: Implementation;
}

/** A sign-in to start. */
export interface SignInStartRequest {
  /** The server's name in the config. */
  server: string;
  /** The profile signing in; absent: the gateway's own sign-in. */
  profile?: string | undefined;
  /** Who starts it (e.g. the console operator's principal); one may have a few waiting. */
  owner: string;
  /** Where the authorization server sends the browser back (the gateway's callback route). */
  redirectUrl: string;
}

/** A started sign-in: the URL to open, and the binding its browser must send back. */
export interface StartedSignIn {
  /** The authorization URL. */
  url: URL;
  /** The random binding the starter's browser keeps (a cookie) and the redirect brings. */
  binding: string;
  /** When it stops waiting (epoch ms). */
  expiresAt: number;
}

/** What a redirect to the callback route came to. */
export type SignInCallbackOutcome =
  | { ok: true; server: string; profile?: string; summary: SignInSummary }
  | { ok: false; status: 400 | 403; message: string };

/** Sign-ins started by the gateway whose redirect comes back to its own route. */
export interface SignInBroker {
  /**
   * Starts a sign-in: discovery, registration (with `redirectUrl`), PKCE; the URL to open.
   *
   * @throws {@link ToolSearchError} `invalid_argument` for a server that does not sign in
   * interactively; `upstream_sign_in_failed` when too many are waiting or the server's
   * metadata does not check out
   */
  start(request: SignInStartRequest): Promise<StartedSignIn>;
  /**
   * Takes the redirect (`code`, `state`, `iss` or `error`): the `state` must be one this
   * broker started and still waits for, and `binding` the one it handed out with it. A
   * `state` is used once: a replay, another's binding or an expired one is refused.
   *
   * @throws nothing: a refusal or a failed exchange is the outcome
   */
  callback(params: URLSearchParams, binding: string | undefined): Promise<SignInCallbackOutcome>;
  /** Stops every sign-in still waiting. */
  close(): Promise<void>;
}

interface Pending {
  owner: string;
  server: string;
  profile: string | undefined;
  binding: string;
  expiresAt: number;
  deliver(response: AuthorizationResponse | Error): void;
  done: Promise<SignInSummary>;
  abort: AbortController;
}

const refused = (status: 400 | 403, message: string): SignInCallbackOutcome => ({
  ok: false,
  status,
  message,
});

function sameSecret(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A receiver of one redirect, handed to `signInToUpstream` in place of a loopback port. */
function routeReceiver(redirectUrl: string) {
  let waiter: { resolve(r: AuthorizationResponse): void; reject(e: Error): void } | undefined;
  let early: AuthorizationResponse | Error | undefined;
  const receiver: CallbackServer = {
    redirectUrl,
    next() {
      return new Promise((resolve, reject) => {
        if (early !== undefined) {
          const value = early;
          early = undefined;
          if (value instanceof Error) reject(value);
          else resolve(value);
          return;
        }
        waiter = { resolve, reject };
      });
    },
    async close() {
      waiter?.reject(new ToolSearchError('upstream_sign_in_failed', 'the sign-in was stopped'));
      waiter = undefined;
    },
  };
  const deliver = (value: AuthorizationResponse | Error) => {
    const current = waiter;
    waiter = undefined;
    if (current === undefined) early = value;
    else if (value instanceof Error) current.reject(value);
    else current.resolve(value);
  };
  return { receiver, deliver };
}

/**
 * Creates the broker of sign-ins whose redirect comes back to the gateway's own route.
 * Bounded: at most `maxPending` wait at once (3 a starter); each waits `ttlMs` at most.
 *
 * @param options - the store, the servers' sign-ins and the bounds
 * @returns the broker
 * @throws nothing
 */
export function createSignInBroker(options: SignInBrokerOptions): SignInBroker {
  const ttlMs = options.ttlMs ?? DEFAULT_SIGN_IN_TTL_MS;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING_SIGN_INS;
  const pending = new Map<string, Pending>();

  const forget = (state: string, entry: Pending) => {
    if (pending.get(state) === entry) pending.delete(state);
  };
  const sweep = () => {
    const now = Date.now();
    for (const [state, entry] of pending) {
      if (entry.expiresAt <= now) {
        forget(state, entry);
        entry.abort.abort();
      }
    }
  };

  /** Starters whose sign-in is still discovering (not yet waiting for its redirect). */
  const starting = new Map<string, number>();

  /** Discovers and registers, then waits for the redirect of one started sign-in. */
  const begin = async (
    request: SignInStartRequest,
    target: NonNullable<ReturnType<SignInBrokerOptions['target']>>,
  ): Promise<StartedSignIn> => {
    const { receiver, deliver } = routeReceiver(request.redirectUrl);
    const abort = new AbortController();
    let opened: ((url: URL) => void) | undefined;
    const url = new Promise<URL>((resolve) => {
      opened = resolve;
    });
    const done = signInToUpstream({
      server: request.server,
      url: target.url,
      auth: target.auth,
      headers: target.headers,
      store: options.store,
      profile: request.profile,
      receiver,
      timeoutMs: ttlMs,
      signal: abort.signal,
      ...(options.requestTimeoutMs === undefined
        ? {}
        : { requestTimeoutMs: options.requestTimeoutMs }),
      ...(options.clientInfo === undefined ? {} : { clientInfo: options.clientInfo }),
      onAuthorizationUrl: (address) => opened?.(address),
    });
    done.catch(() => {});
    // The server may need no person at all (a sign-in still valid): then there is no URL.
    const first = await Promise.race([url, done.then(() => undefined)]);
    if (first === undefined) {
      throw new ToolSearchError(
        'invalid_argument',
        `server '${request.server}' is signed in already${request.profile === undefined ? '' : ` for profile '${request.profile}'`}`,
        { data: { server: request.server } },
      );
    }
    const state = first.searchParams.get('state');
    if (state === null || state.length < 16) {
      abort.abort();
      throw new ToolSearchError(
        'upstream_sign_in_failed',
        `server '${request.server}': the authorization URL carries no state; refused`,
        { data: { server: request.server } },
      );
    }
    const entry: Pending = {
      owner: request.owner,
      server: request.server,
      profile: request.profile,
      binding: randomBytes(24).toString('base64url'),
      expiresAt: Date.now() + ttlMs,
      deliver,
      done,
      abort,
    };
    pending.set(state, entry);
    done.finally(() => forget(state, entry)).catch(() => {});
    return { url: first, binding: entry.binding, expiresAt: entry.expiresAt };
  };

  return {
    async start(request) {
      const target = options.target(request.server);
      if (target === undefined) {
        throw new ToolSearchError(
          'invalid_argument',
          `server '${request.server}' does not sign in with a person's sign-in (no "oauth" auth)`,
          { data: { server: request.server } },
        );
      }
      sweep();
      // Starts still discovering count as waiting: parallel starts cannot pass the bounds.
      const mine =
        [...pending.values()].filter((entry) => entry.owner === request.owner).length +
        (starting.get(request.owner) ?? 0);
      const all = pending.size + [...starting.values()].reduce((sum, count) => sum + count, 0);
      if (all >= maxPending || mine >= MAX_PENDING_PER_OWNER) {
        throw new ToolSearchError(
          'upstream_sign_in_failed',
          'too many sign-ins are waiting for their redirect; finish one or try again in a few minutes',
          { data: { server: request.server, field: 'pending' } },
        );
      }
      starting.set(request.owner, (starting.get(request.owner) ?? 0) + 1);
      try {
        return await begin(request, target);
      } finally {
        const left = (starting.get(request.owner) ?? 1) - 1;
        if (left > 0) starting.set(request.owner, left);
        else starting.delete(request.owner);
      }
    },

    async callback(params, binding) {
      sweep();
      const state = params.get('state') ?? '';
      const entry = pending.get(state);
      if (entry === undefined) {
        return refused(
          400,
          'This sign-in link does not belong to a sign-in the gateway is waiting for (unknown, used or expired state).',
        );
      }
      // Used once, whatever comes of it: a replay finds nothing.
      forget(state, entry);
      if (!sameSecret(entry.binding, binding)) {
        entry.abort.abort();
        return refused(
          403,
          'This sign-in was started in another browser (or by someone else); it was stopped. Start it again from the console.',
        );
      }
      const error = params.get('error');
      const code = params.get('code');
      const iss = params.get('iss');
      entry.deliver(
        error !== null || code === null
          ? new ToolSearchError(
              'upstream_sign_in_failed',
              `server '${entry.server}': the authorization server answered ${error ?? 'no code'}`,
              { data: { server: entry.server } },
            )
          : { code, ...(iss === null ? {} : { iss }) },
      );
      try {
        const summary = await entry.done;
        return {
          ok: true,
          server: entry.server,
          ...(entry.profile === undefined ? {} : { profile: entry.profile }),
          summary,
        };
      } catch (failure) {
        return refused(400, describeError(failure));
      }
    },

    async close() {
      for (const [state, entry] of pending) {
        forget(state, entry);
        entry.abort.abort();
      }
    },
  };
}
