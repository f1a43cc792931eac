import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ToolSearchError } from '@tool-search/core';
import type { GatewayProfile } from '@tool-search/mcp/config';
import type { HttpTokens } from '../http/http-auth.js';

/** The console session cookie's name. */
export const CONSOLE_COOKIE = 'tool_search_console';
/** The header that carries a console session's CSRF token on every change. */
export const CSRF_HEADER = 'x-csrf-token';
/** How long a console sign-in lasts: 8 hours. */
export const CONSOLE_SESSION_MS = 8 * 60 * 60 * 1000;

/** A signed-in operator, as the cookie says. */
export interface ConsoleOperator {
  /** `default` for the gateway token, `profile:<name>` for an operator profile's. */
  principal: string;
  /** When the sign-in ends (`Date.now()` scale). */
  expiresAt: number;
  /** The sign-in's random nonce: its CSRF token is derived from it. */
  nonce: string;
}

const encode = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * Console sign-in: the cookie holds the operator and an expiry, signed with a key
 * derived from the listener's token secret, so that every replica of one config
 * accepts it and a new token ends every sign-in. The CSRF token is a MAC of the
 * sign-in's nonce. A gateway without tokens has no key at all (never a constant one):
 * nobody signs in, and no cookie is accepted.
 */
export class ConsoleAuth {
  /** The signing key: absent when the listener has no token (no operator credential). */
  private readonly key: Buffer | undefined;

  /** The profiles in force (a reload of the config may replace them). */
  private readonly profilesNow: () => Readonly<Record<string, GatewayProfile>>;

  constructor(
    private readonly tokens: HttpTokens,
    profiles:
      | Readonly<Record<string, GatewayProfile>>
      | (() => Readonly<Record<string, GatewayProfile>>),
  ) {
    this.profilesNow = typeof profiles === 'function' ? profiles : () => profiles;
    this.key =
      tokens.size === 0
        ? undefined
        : createHmac('sha256', tokens.secret).update('tool-search console sessions').digest();
  }

  /** Whether anybody can sign in: the listener has a token (its own or a profile's). */
  get enabled(): boolean {
    return this.key !== undefined;
  }

  private mac(text: string): Buffer {
    if (this.key === undefined) {
      throw new ToolSearchError(
        'invalid_config',
        'The console has no operator credential: the listener has no token.',
      );
    }
    return createHmac('sha256', this.key).update(text).digest();
  }

  /** The operator a bearer token is, or undefined (unknown, or not an operator's). */
  operatorOf(token: string): string | undefined {
    if (!this.enabled || token.length === 0) return undefined;
    const principal = this.tokens.authenticate(`Bearer ${token}`)?.principal;
    if (principal === 'default') return principal;
    if (principal?.startsWith('profile:')) {
      const profile = this.profilesNow()[principal.slice('profile:'.length)];
      return profile?.operator === true ? principal : undefined;
    }
    return undefined;
  }

  /**
   * A new sign-in's cookie value and CSRF token.
   *
   * @throws `ToolSearchError` `invalid_config` when the listener has no token
   */
  signIn(principal: string, now = Date.now()): { cookie: string; csrf: string } {
    const operator: ConsoleOperator = {
      principal,
      expiresAt: now + CONSOLE_SESSION_MS,
      nonce: randomBytes(16).toString('base64url'),
    };
    const payload = encode(JSON.stringify(operator));
    return {
      cookie: `${payload}.${encode(this.mac(`cookie:${payload}`))}`,
      csrf: this.csrfOf(operator),
    };
  }

  /**
   * The CSRF token of a sign-in.
   *
   * @throws `ToolSearchError` `invalid_config` when the listener has no token
   */
  csrfOf(operator: ConsoleOperator): string {
    return encode(this.mac(`csrf:${operator.nonce}`));
  }

  /** The signed-in operator of a request (its cookie), or undefined. */
  operatorOfRequest(req: IncomingMessage, now = Date.now()): ConsoleOperator | undefined {
    if (!this.enabled) return undefined;
    const value = cookieOf(req.headers.cookie, CONSOLE_COOKIE);
    const [payload, signature] = value?.split('.') ?? [];
    if (payload === undefined || signature === undefined) return undefined;
    if (!sameText(signature, encode(this.mac(`cookie:${payload}`)))) return undefined;
    try {
      const operator = JSON.parse(Buffer.from(payload, 'base64url').toString()) as ConsoleOperator;
      if (typeof operator.expiresAt !== 'number' || operator.expiresAt <= now) return undefined;
      // A token that lost its operator mark (the config changed) signs nobody in.
      const stillOperator =
        operator.principal === 'default' ||
        this.profilesNow()[operator.principal.slice('profile:'.length)]?.operator === true;
      return stillOperator ? operator : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether a change request carries its sign-in's CSRF token. */
  csrfMatches(req: IncomingMessage, operator: ConsoleOperator): boolean {
    if (!this.enabled) return false;
    const sent = req.headers[CSRF_HEADER];
    return typeof sent === 'string' && sameText(sent, this.csrfOf(operator));
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of one cookie of a `Cookie` header. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * The `Set-Cookie` value of a sign-in (or, with an empty value, of a sign-out).
 *
 * @param value - the cookie's value; empty clears it
 * @param secure - whether the console is served over TLS
 * @returns the header value
 */
export function sessionCookie(value: string, secure: boolean): string {
  const age = value === '' ? 0 : Math.floor(CONSOLE_SESSION_MS / 1000);
  return `${CONSOLE_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${age}${secure ? '; Secure' : ''}`;
}
