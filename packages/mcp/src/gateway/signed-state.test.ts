import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import {
  argumentsHash,
  readSignedState,
  type SignedStateEnvelope,
  signState,
} from './signed-state.js';

const key = new Uint8Array(32).fill(7);
const now = 1_000_000;
const state = { v: 1 as const, p: 'alice', e: now + 60_000, x: 'payload' };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(ToolSearchError.isInstance(error)).toBe(true);
    return (error as ToolSearchError).message;
  }
  throw new Error('expected a refusal');
}

describe('signed states', () => {
  it('reads back what it signed, for the same purpose and principal', () => {
    const raw = signState(key, 'relay', state);
    expect(readSignedState(key, 'relay', raw, { principal: 'alice', now })).toEqual(state);
  });

  it('refuses a state signed for another purpose, principal, key or time', () => {
    const raw = signState(key, 'approval', state);
    expect(
      refusal(() => readSignedState(key, 'working-set', raw, { principal: 'alice', now })),
    ).toMatch(/signature/);
    expect(
      refusal(() =>
        readSignedState(key, 'approval', raw, { principal: 'bob', now, advice: 'ask again' }),
      ),
    ).toBe('The requestState was issued to another client: ask again.');
    expect(
      refusal(() =>
        readSignedState(new Uint8Array(32), 'approval', raw, { principal: 'alice', now }),
      ),
    ).toMatch(/signature/);
    expect(
      refusal(() =>
        readSignedState(key, 'approval', raw, {
          principal: 'alice',
          now: now + 60_000,
          field: 'working_set',
        }),
      ),
    ).toBe('The working_set has expired.');
  });

  it('refuses an altered body, extra parts and oversize text', () => {
    const raw = signState(key, 'relay', state);
    const [body, mac] = raw.split('.');
    const altered = Buffer.from(JSON.stringify({ ...state, p: 'alice', x: 'other' })).toString(
      'base64url',
    );
    expect(
      refusal(() =>
        readSignedState(key, 'relay', `${altered}.${mac}`, { principal: 'alice', now }),
      ),
    ).toMatch(/signature/);
    expect(
      refusal(() => readSignedState(key, 'relay', `${body}.${mac}.x`, { principal: 'alice', now })),
    ).toMatch(/not one this gateway issued/);
    const big = signState(key, 'relay', { ...state, x: 'y'.repeat(5000) });
    expect(refusal(() => readSignedState(key, 'relay', big, { principal: 'alice', now }))).toMatch(
      /not one/,
    );
    expect(
      readSignedState<SignedStateEnvelope & { x: string }>(key, 'relay', big, {
        principal: 'alice',
        now,
        maxLength: 10_000,
      }).x,
    ).toHaveLength(5000);
  });

  it('hashes arguments whatever their key order', () => {
    expect(argumentsHash({ a: 1, b: { c: [1, 2], d: null } })).toBe(
      argumentsHash({ b: { d: null, c: [1, 2] }, a: 1 }),
    );
    expect(argumentsHash({ a: 1 })).not.toBe(argumentsHash({ a: '1' }));
  });
});
