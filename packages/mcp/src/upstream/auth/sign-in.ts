import { type Implementation, UnauthorizedError } from '@modelcontextprotocol/client';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { createUpstreamClient } from '../client.js';
import { createHttpTransport } from '../transports.js';
import { createAuthAwareFetch, DEFAULT_AUTH_REQUEST_TIMEOUT_MS } from './auth-fetch.js';
import {
  type AuthorizationResponse,
  type CallbackServer,
  openCallbackServer,
} from './callback-server.js';
import { type SignInSummary, signInKey, summarizeSignIn } from './credentials.js';
import { type SignInTarget, UpstreamOAuthProvider } from './provider.js';

/** The most authorization rounds one login goes through (a step-up asks for another). */
export const MAX_SIGN_IN_ROUNDS = 3;

/** Options of {@link signInToUpstream}. */
export interface SignInOptions extends SignInTarget {
  /** Headers the entry sends besides the token. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Called with the URL a person opens to sign in (print it on a line of its own). */
  onAuthorizationUrl: (url: URL) => void;
  /** The deadline of each discovery, registration and token request, in ms. @defaultValue 15000 */
  requestTimeoutMs?: number;
  /** The longest wait for the person, in ms. @defaultValue 300000 */
  timeoutMs?: number;
  /** How the gateway introduces itself to the server. */
  clientInfo?: Implementation;
  /** Ends the login. */
  signal?: AbortSignal;
  /**
   * Where the redirect comes back, when not to a loopback port of this process: e.g. the
   * gateway's own HTTP route (the console's sign-in, {@link createSignInBroker}).
   * @defaultValue a loopback listener on `auth.redirectPort` (or a free port)
   */
  receiver?: CallbackServer;
}

function checkIss(
  provider: UpstreamOAuthProvider,
  response: AuthorizationResponse,
  server: string,
): void {
  const metadata = provider.discovered?.authorizationServerMetadata;
  const issuer = metadata?.issuer;
  const supported =
    (metadata as { authorization_response_iss_parameter_supported?: boolean } | undefined)
      ?.authorization_response_iss_parameter_supported === true;
  if (response.iss === undefined ? supported : issuer !== undefined && response.iss !== issuer) {
    throw new ToolSearchError(
      'upstream_sign_in_failed',
      `server '${server}': the authorization response ${response.iss === undefined ? 'has no iss parameter, which its authorization server promises' : `comes from issuer ${response.iss}, not ${issuer}`} (RFC 9207); refused`,
      { data: { server } },
    );
  }
}

/**
 * Signs the gateway (or one profile) in to an HTTP server that needs OAuth, as the MCP
 * authorization spec says: the server's 401 starts the SDK's `auth()` (protected resource
 * and authorization server discovery, registration, PKCE S256 with `resource`), the
 * authorization URL goes to `onAuthorizationUrl`, the redirect comes back to a loopback
 * port (`state` and `iss` checked), the code is exchanged, and the tokens are stored. It
 * then lists the server's tools to prove the sign-in.
 *
 * @param options - the server, its store, and where the URL goes
 * @returns what was stored (never a token)
 * @throws {@link ToolSearchError} `upstream_sign_in_failed` when the authorization server
 * refuses, its metadata or response does not check out, the person does not finish in
 * time, or the server still refuses after {@link MAX_SIGN_IN_ROUNDS} rounds
 */
export async function signInToUpstream(options: SignInOptions): Promise<SignInSummary> {
  const { server } = options;
  const callback =
    options.receiver ??
    (await openCallbackServer({ port: options.auth.redirectPort ?? 0, server }));
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 300_000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const provider = await UpstreamOAuthProvider.forLogin(options, {
      redirectUrl: callback.redirectUrl,
      onAuthorizationUrl: options.onAuthorizationUrl,
    });
    for (let round = 1; ; round += 1) {
      const transport = createHttpTransport({
        kind: 'streamable-http',
        url: new URL(options.url),
        headers: options.headers,
        authProvider: provider,
        // The provider checks the metadata's issuer (by origin in the 2025-03-26 fallback).
        providerChecksIssuer: true,
        fetch: createAuthAwareFetch(options.url, { timeoutMs: options.requestTimeoutMs }),
      });
      // The pool's client (either era), so that the proof below is what serve will do.
      const client = createUpstreamClient({
        clientInfo: options.clientInfo ?? { name: 'tool-search-gateway', version: '0.0.0' },
        probeTimeoutMs: options.requestTimeoutMs ?? DEFAULT_AUTH_REQUEST_TIMEOUT_MS,
      });
      try {
        await client.connect(transport, { signal });
        await client.listTools(undefined, { signal });
        await client.close();
        break;
      } catch (error) {
        await client.close().catch(() => {});
        if (!(error instanceof UnauthorizedError) || provider.expectedState === undefined) {
          throw error;
        }
        if (round >= MAX_SIGN_IN_ROUNDS) {
          throw new ToolSearchError(
            'upstream_sign_in_failed',
            `server '${server}' still refused after ${MAX_SIGN_IN_ROUNDS} sign-in rounds`,
            { data: { server } },
          );
        }
        const response = await Promise.race([
          callback.next(() => provider.expectedState),
          new Promise<never>((_, reject) => {
            const onAbort = () =>
              reject(
                new ToolSearchError(
                  'upstream_sign_in_failed',
                  `server '${server}': no sign-in came back to ${callback.redirectUrl} in time`,
                  { data: { server } },
                ),
              );
            if (signal.aborted) onAbort();
            signal.addEventListener('abort', onAbort, { once: true });
          }),
        ]);
        checkIss(provider, response, server);
        await transport.finishAuth(response.code, response.iss);
      }
    }
    return summarizeSignIn(await options.store.load(signInKey(server, options.profile)));
  } catch (error) {
    if (ToolSearchError.isInstance(error)) throw error;
    throw new ToolSearchError(
      'upstream_sign_in_failed',
      `server '${server}': sign-in failed (${describeError(error)})`,
      { cause: error, data: { server } },
    );
  } finally {
    await callback.close();
  }
}

/**
 * Removes a stored sign-in (the tokens and the registration).
 *
 * @param target - the server, its store, and the profile (absent: the operator's)
 * @returns true when there was one
 * @throws the store's error
 */
export function signOutOfUpstream(
  target: Pick<SignInTarget, 'server' | 'store' | 'profile'>,
): Promise<boolean> {
  return target.store.delete(signInKey(target.server, target.profile));
}
