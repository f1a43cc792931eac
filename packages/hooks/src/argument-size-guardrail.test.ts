import { describe, expect, it } from 'vitest';
import { createArgumentSizeGuardrail } from './argument-size-guardrail.js';
import type { DispatchContext } from './types.js';

const ctx: DispatchContext = { via: 'direct', signal: new AbortController().signal };

describe('createArgumentSizeGuardrail', () => {
  it('allows arguments up to the limit, as compact UTF-8 JSON', () => {
    const guardrail = createArgumentSizeGuardrail(12);
    // {"a":"1234"} is 12 bytes
    expect(guardrail.check({ name: 't', arguments: { a: '1234' } }, ctx)).toEqual({ allow: true });
    expect(guardrail.check({ name: 't', arguments: { a: '12345' } }, ctx)).toEqual({
      allow: false,
      reason:
        "The arguments of 't' are 13 bytes of JSON; at most 12 are allowed. Send less, e.g. in several calls.",
    });
  });

  it('counts bytes, not characters', () => {
    const guardrail = createArgumentSizeGuardrail(12);
    // {"a":"éé"} is 10 characters and 12 bytes; {"a":"ééé"} is 14 bytes
    expect(guardrail.check({ name: 't', arguments: { a: 'éé' } }, ctx)).toEqual({ allow: true });
    expect(guardrail.check({ name: 't', arguments: { a: 'ééé' } }, ctx)).toMatchObject({
      allow: false,
    });
    expect(guardrail.check({ name: 't', arguments: { a: '😀😀' } }, ctx)).toMatchObject({
      allow: false,
    });
  });

  it('denies arguments that cannot be serialised', () => {
    const guardrail = createArgumentSizeGuardrail(1000);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(guardrail.check({ name: 't', arguments: cyclic }, ctx)).toMatchObject({
      allow: false,
      reason: expect.stringContaining('cannot be serialised as JSON'),
    });
    expect(guardrail.check({ name: 't', arguments: { n: 1n } }, ctx)).toMatchObject({
      allow: false,
    });
  });

  it('has a name and rejects a limit that is not positive', () => {
    expect(createArgumentSizeGuardrail(1).name).toBe('argument-size');
    expect(createArgumentSizeGuardrail(1, { name: 'size' }).name).toBe('size');
    expect(() => createArgumentSizeGuardrail(0)).toThrow(/maxBytes/);
    expect(() => createArgumentSizeGuardrail(Number.NaN)).toThrow(/maxBytes/);
  });
});
