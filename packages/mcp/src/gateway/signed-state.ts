import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ToolSearchError } from '@tool-search/core';

/**
 * What a signed state is for. Each purpose signs under its own label, so a state issued
 * for one (an approval's `requestState`) is never accepted as another (a relay's, a
 * working-set handle).
 */
export type SignedStatePurpose = 'approval' | 'relay' | 'working-set';

/** The fields every signed state carries: version, principal and expiry. */
export interface SignedStateEnvelope {
  v: 1;
  /** The principal the state was issued to. */
  p: string;
  /** When it lapses (ms since the epoch). */
  e: number;
}

/** How a signed state is read back. */
export interface ReadSignedStateOptions {
  /** The principal of the request presenting the state: it must be the one it was issued to. */
  principal: string;
  /** Now, in ms since the epoch. */
  now: number;
  /** The longest text accepted (the default is 4,096 characters). */
  maxLength?: number;
  /** The field named in a refusal's `data.field` (the default is `requestState`). */
  field?: string;
  /** What a refusal for another principal or an expired state tells the client to do. */
  advice?: string;
}

/** The longest signed state read by default. */
export const DEFAULT_SIGNED_STATE_MAX = 4096;

/** A stable JSON text of a value (object keys sorted), for hashing arguments. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The hash of a call's final arguments (a stable text of them, object keys sorted), as a
 * signed state binds them.
 *
 * @param args - the final arguments
 * @returns the SHA-256 of their canonical text, base64url
 * @throws nothing
 */
export function argumentsHash(args: Record<string, unknown>): string {
  return createHash('sha256').update(canonical(args)).digest('base64url');
}

function mac(key: Uint8Array, purpose: SignedStatePurpose, body: string): Buffer {
  return createHmac('sha256', key)
    .update(`tool-search ${purpose} state v1\u0000`)
    .update(body)
    .digest();
}

/**
 * Signs a state for a client to hold and echo: `<base64url JSON>.<HMAC-SHA256>`, under the
 * label of its purpose. The client can read it; it cannot change it unseen.
 *
 * @param key - the HMAC key (the operator's token secret, or random per gateway)
 * @param purpose - what the state is for
 * @param state - the state, with its principal and expiry
 * @returns the opaque text
 * @throws nothing
 */
export function signState<T extends SignedStateEnvelope>(
  key: Uint8Array,
  purpose: SignedStatePurpose,
  state: T,
): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${mac(key, purpose, body).toString('base64url')}`;
}

/**
 * Reads a signed state back: its length, signature (for this purpose), version, principal
 * and expiry checked. The payload's own fields are the caller's to check.
 *
 * @param key - the HMAC key it was signed with
 * @param purpose - what it must have been issued for
 * @param raw - the text the client echoed
 * @param options - the principal presenting it, now, and limits
 * @returns the state
 * @throws {@link ToolSearchError} `invalid_argument` (`data.field` names the field) when it
 * fails a check: too long, malformed, forged or of another purpose, of an unknown version,
 * issued to another principal, or expired
 */
export function readSignedState<T extends SignedStateEnvelope>(
  key: Uint8Array,
  purpose: SignedStatePurpose,
  raw: string,
  options: ReadSignedStateOptions,
): T {
  const field = options.field ?? 'requestState';
  const refuse = (message: string): never => {
    throw new ToolSearchError('invalid_argument', message, { data: { field } });
  };
  const [body, signature, extra] = raw.split('.');
  if (
    body === undefined ||
    signature === undefined ||
    extra !== undefined ||
    raw.length > (options.maxLength ?? DEFAULT_SIGNED_STATE_MAX)
  ) {
    refuse(`The ${field} is not one this gateway issued.`);
  }
  const expected = mac(key, purpose, body as string);
  const given = Buffer.from(signature as string, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    refuse(`The ${field} is not one this gateway issued (its signature does not match).`);
  }
  let state: T | undefined;
  try {
    state = JSON.parse(Buffer.from(body as string, 'base64url').toString('utf8')) as T;
  } catch {
    refuse(`The ${field} is not one this gateway issued.`);
  }
  if (typeof state !== 'object' || state === null || state.v !== 1) {
    refuse(`The ${field} is of an unknown version.`);
  }
  const checked = state as T;
  const advice = options.advice === undefined ? '' : `: ${options.advice}`;
  if (checked.p !== options.principal)
    refuse(`The ${field} was issued to another client${advice}.`);
  if (!(checked.e > options.now)) refuse(`The ${field} has expired${advice}.`);
  return checked;
}
