import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHttpTokens } from '../http/http-auth.js';
import { CONSOLE_COOKIE, ConsoleAuth, sessionCookie } from './console-auth.js';

const GATEWAY = 'gateway-token-0123456789abcdef';
const OPS = 'operator-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdefgh';
const profiles = { ops: { token: OPS, operator: true }, agent: { token: AGENT } };

function authFor(
  token = GATEWAY,
  profileSet: typeof profiles | Record<string, { token: string }> = profiles,
) {
  return new ConsoleAuth(
    createHttpTokens({ token, profiles: profileSet, defaultProfile: undefined }),
    profileSet,
  );
}

const requestWith = (headers: Record<string, string>) =>
  ({ headers }) as unknown as IncomingMessage;

describe('ConsoleAuth', () => {
  it('signs in the gateway token and an operator profile’s token, nobody else', () => {
    const auth = authFor();
    expect(auth.operatorOf(GATEWAY)).toBe('default');
    expect(auth.operatorOf(OPS)).toBe('profile:ops');
    expect(auth.operatorOf(AGENT)).toBeUndefined();
    expect(auth.operatorOf('')).toBeUndefined();
    expect(auth.operatorOf('not-a-token-of-this-gateway')).toBeUndefined();
  });

  it('signs nobody in on a gateway without tokens', () => {
    const auth = new ConsoleAuth(
      createHttpTokens({ token: undefined, profiles: {}, defaultProfile: undefined }),
      {},
    );
    expect(auth.operatorOf('anything-at-all-here')).toBeUndefined();
  });

  it('has no sign-in at all without tokens: a cookie or CSRF token forged with any known key fails', () => {
    const tokens = createHttpTokens({ token: undefined, profiles: {}, defaultProfile: undefined });
    const auth = new ConsoleAuth(tokens, {});
    expect(auth.enabled).toBe(false);
    const operator = { principal: 'default', expiresAt: Date.now() + 1e9, nonce: 'n' };
    const payload = Buffer.from(JSON.stringify(operator)).toString('base64url');
    // The keys an attacker can compute: the token secret of a gateway without tokens, and
    // the constant it starts from.
    const knownKeys = [
      tokens.secret,
      createHash('sha256').update('tool-search http tokens v1').digest(),
    ];
    for (const key of knownKeys) {
      const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
      const request = requestWith({
        cookie: `${CONSOLE_COOKIE}=${payload}.${mac(`cookie:${payload}`)}`,
        'x-csrf-token': mac('csrf:n'),
      });
      expect(auth.operatorOfRequest(request)).toBeUndefined();
      expect(auth.csrfMatches(request, operator)).toBe(false);
    }
    expect(() => auth.signIn('default')).toThrow(/no operator credential/);
  });

  it('signs with a key of its own, not the listener’s token secret itself', () => {
    const tokens = createHttpTokens({ token: GATEWAY, profiles: {}, defaultProfile: undefined });
    const auth = new ConsoleAuth(tokens, {});
    const { cookie } = auth.signIn('default');
    const [payload, signature] = cookie.split('.');
    expect(signature).not.toBe(
      createHmac('sha256', tokens.secret).update(`cookie:${payload}`).digest('base64url'),
    );
  });

  it('accepts its own cookie, on any replica of the same config, with its CSRF token only', () => {
    const auth = authFor();
    const { cookie, csrf } = auth.signIn('profile:ops');
    const request = requestWith({
      cookie: `other=1; ${CONSOLE_COOKIE}=${cookie}`,
      'x-csrf-token': csrf,
    });
    const operator = authFor().operatorOfRequest(request);
    expect(operator?.principal).toBe('profile:ops');
    expect(auth.csrfMatches(request, operator!)).toBe(true);
    expect(auth.csrfMatches(requestWith({ 'x-csrf-token': `${csrf}x` }), operator!)).toBe(false);
    expect(auth.csrfMatches(requestWith({}), operator!)).toBe(false);
    // Another sign-in has another CSRF token.
    expect(
      auth.csrfOf(
        authFor().operatorOfRequest(
          requestWith({ cookie: `${CONSOLE_COOKIE}=${auth.signIn('default').cookie}` }),
        )!,
      ),
    ).not.toBe(csrf);
  });

  it('refuses a forged, tampered, expired or foreign cookie', () => {
    const auth = authFor();
    const { cookie } = auth.signIn('default');
    const [payload, signature] = cookie.split('.');
    const forged = Buffer.from(
      JSON.stringify({ principal: 'default', expiresAt: Date.now() + 1e9, nonce: 'n' }),
    ).toString('base64url');
    for (const value of [`${forged}.${signature}`, `${payload}.x${signature}`, payload!, '']) {
      expect(
        auth.operatorOfRequest(requestWith({ cookie: `${CONSOLE_COOKIE}=${value}` })),
      ).toBeUndefined();
    }
    const expired = auth.signIn('default', Date.now() - 9 * 60 * 60 * 1000).cookie;
    expect(
      auth.operatorOfRequest(requestWith({ cookie: `${CONSOLE_COOKIE}=${expired}` })),
    ).toBeUndefined();
    // A gateway with another token does not know this sign-in.
    expect(
      authFor('another-token-0123456789abcdef').operatorOfRequest(
        requestWith({ cookie: `${CONSOLE_COOKIE}=${cookie}` }),
      ),
    ).toBeUndefined();
  });

  it('ends the sign-in of a profile that is no longer marked operator', () => {
    const { cookie } = authFor().signIn('profile:ops');
    const demoted = { ops: { token: OPS }, agent: { token: AGENT } };
    expect(
      authFor(GATEWAY, demoted).operatorOfRequest(
        requestWith({ cookie: `${CONSOLE_COOKIE}=${cookie}` }),
      ),
    ).toBeUndefined();
  });
});

describe('sessionCookie', () => {
  it('is HttpOnly, SameSite=Strict and scoped to /console; Secure only over TLS', () => {
    expect(sessionCookie('v', false)).toBe(
      `${CONSOLE_COOKIE}=v; Path=/console; HttpOnly; SameSite=Strict; Max-Age=28800`,
    );
    expect(sessionCookie('v', true)).toMatch(/; Secure$/);
    expect(sessionCookie('', false)).toContain('Max-Age=0');
  });
});
