import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StoredSignIn } from './credentials.js';
import { createSealedSignInStore, parseSignInKey, type SealedValues } from './sealed-store.js';

function memoryValues(): SealedValues & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async (key) => map.get(key),
    set: async (key, value) => {
      map.set(key, value);
    },
    delete: async (key) => map.delete(key),
  };
}

const record: StoredSignIn = {
  version: 1,
  server: 'docs',
  serverUrl: 'https://docs.example/mcp',
  tokens: {
    access_token: 'secret-access-token-1',
    token_type: 'Bearer',
    refresh_token: 'secret-refresh-1',
  },
};

describe('createSealedSignInStore', () => {
  it('keeps records encrypted: the stored text holds no token, and reads back whole', async () => {
    const values = memoryValues();
    const store = createSealedSignInStore(values, randomBytes(32));
    await store.save('docs', record);
    const stored = values.map.get('docs') ?? '';
    expect(stored.startsWith('v1.')).toBe(true);
    expect(stored).not.toContain('secret-access-token-1');
    expect(stored).not.toContain('secret-refresh-1');
    expect(await store.load('docs')).toEqual(record);
  });

  it('reads nothing with another key, from a tampered value, or from a value moved to another key', async () => {
    const values = memoryValues();
    const key = randomBytes(32);
    await createSealedSignInStore(values, key).save('docs', record);
    expect(await createSealedSignInStore(values, randomBytes(32)).load('docs')).toBeUndefined();
    const sealed = values.map.get('docs') ?? '';
    values.map.set('docs@alice', sealed);
    expect(await createSealedSignInStore(values, key).load('docs@alice')).toBeUndefined();
    const flipped = Buffer.from(sealed.slice(3), 'base64');
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    values.map.set('docs', `v1.${flipped.toString('base64')}`);
    expect(await createSealedSignInStore(values, key).load('docs')).toBeUndefined();
  });
});

describe('parseSignInKey', () => {
  it('takes 32 bytes as base64 or hex, and refuses anything else with how to make one', () => {
    const bytes = randomBytes(32);
    expect(parseSignInKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSignInKey(bytes.toString('hex'))).toEqual(bytes);
    expect(() => parseSignInKey(undefined)).toThrow(/openssl rand -base64 32/);
    expect(() => parseSignInKey(randomBytes(16).toString('base64'))).toThrow(/not 32 bytes/);
  });
});
