import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { authStep, createHttpTokens } from './http-auth.js';
import type { HttpRequestContext } from './http-chain.js';
import { hostStep } from './http-host.js';
import { originStep } from './http-origin.js';
import { preflightStep } from './http-preflight.js';

/** A request and a response that record what was answered. */
function request(method: string, headers: Record<string, string> = {}) {
  const req = { method, headers, complete: true } as unknown as IncomingMessage;
  const answer: { status?: number; headers: Record<string, unknown>; body?: string } = {
    headers: {},
  };
  const res = {
    req,
    headersSent: false,
    setHeader: (name: string, value: unknown) => {
      answer.headers[name] = value;
    },
    writeHead(status: number, headers: Record<string, unknown> = {}) {
      answer.status = status;
      Object.assign(answer.headers, headers);
      return this;
    },
    end: (body?: string) => {
      answer.body = body;
    },
  } as unknown as ServerResponse;
  const context: HttpRequestContext = { req, res, url: new URL('http://gateway/mcp') };
  return { context, answer };
}

describe('originStep', () => {
  const step = originStep({
    allowedOrigins: new Set(['https://app.example']),
    ownOrigins: () => new Set(['http://127.0.0.1:8080']),
  });

  it('refuses a foreign origin with 403 and no CORS headers', async () => {
    const { context, answer } = request('POST', { origin: 'https://evil.example' });
    expect(await step(context)).toBe(true);
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets an allowed origin through with the CORS headers, and a request without one as it is', async () => {
    const allowed = request('POST', { origin: 'https://app.example' });
    expect(await step(allowed.context)).toBe(false);
    expect(allowed.answer.headers['access-control-allow-origin']).toBe('https://app.example');
    const none = request('POST');
    expect(await step(none.context)).toBe(false);
    expect(none.answer.headers).toEqual({});
  });
});

describe('hostStep', () => {
  it('on loopback, passes a loopback name with the port and refuses another name', async () => {
    const step = hostStep({ allowedHosts: undefined, loopback: true, port: () => 8080 });
    expect(await step(request('GET', { host: 'localhost:8080' }).context)).toBe(false);
    const rebound = request('GET', { host: 'attacker.example:8080' });
    expect(await step(rebound.context)).toBe(true);
    expect(rebound.answer.status).toBe(403);
  });

  it('passes every host on a public bind without allowedHosts', async () => {
    const step = hostStep({ allowedHosts: undefined, loopback: false, port: () => 8080 });
    expect(await step(request('GET', { host: 'anything.example' }).context)).toBe(false);
  });
});

describe('preflightStep', () => {
  it('answers OPTIONS with 204 and the CORS headers when an origin asks', async () => {
    const { context, answer } = request('OPTIONS', { origin: 'https://app.example' });
    expect(await preflightStep()(context)).toBe(true);
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-headers']).toContain('mcp-session-id');
    expect(await preflightStep()(request('GET').context)).toBe(false);
  });
});

describe('authStep', () => {
  const tokens = createHttpTokens({
    token: 'gateway-token-0123456789',
    profiles: { ops: { token: 'ops-token-0123456789' } } as never,
    defaultProfile: undefined,
  });

  it('puts the principal of a valid token on the context', async () => {
    const { context } = request('POST', { authorization: 'Bearer ops-token-0123456789' });
    expect(await authStep(tokens)(context)).toBe(false);
    expect(context.auth).toEqual({ principal: 'profile:ops', profile: 'ops' });
  });

  it('refuses a missing or unknown token with 401', async () => {
    const { context, answer } = request('POST', { authorization: 'Bearer nope' });
    expect(await authStep(tokens)(context)).toBe(true);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toContain('Bearer');
  });
});

describe('createHttpTokens with the profiles in force', () => {
  const auth = (tokens: ReturnType<typeof createHttpTokens>, token: string) =>
    tokens.authenticate(`Bearer ${token}`);

  it('follows the profiles that a reload replaces: a token added works, one removed is refused', () => {
    let profiles: Record<string, { token?: string }> = { ops: { token: 'ops-token-0123456789' } };
    const tokens = createHttpTokens({
      token: 'gateway-token-0123456789',
      profiles: () => profiles as never,
      defaultProfile: undefined,
    });
    const secret = tokens.secret;
    expect(auth(tokens, 'new-token-0123456789')).toBeUndefined();
    profiles = { added: { token: 'new-token-0123456789' } };
    expect(auth(tokens, 'new-token-0123456789')).toEqual({
      principal: 'profile:added',
      profile: 'added',
    });
    expect(auth(tokens, 'ops-token-0123456789')).toBeUndefined();
    expect(auth(tokens, 'gateway-token-0123456789')?.principal).toBe('default');
    // The key of the listener's signatures stays the one it started with.
    expect(tokens.secret).toEqual(secret);
  });

  it('never opens a listener that started with tokens, nor closes one that started without', () => {
    let profiles: Record<string, { token?: string }> = { ops: { token: 'ops-token-0123456789' } };
    const closed = createHttpTokens({
      token: undefined,
      profiles: () => profiles as never,
      defaultProfile: undefined,
    });
    profiles = {};
    expect(closed.size).toBe(1);
    expect(closed.authenticate(undefined)).toBeUndefined();
    expect(auth(closed, 'ops-token-0123456789')).toBeUndefined();
    let later: Record<string, { token?: string }> = {};
    const open = createHttpTokens({
      token: undefined,
      profiles: () => later as never,
      defaultProfile: undefined,
    });
    later = { ops: { token: 'ops-token-0123456789' } };
    expect(open.size).toBe(0);
    expect(open.authenticate(undefined)).toEqual({ principal: '', profile: undefined });
  });
});
