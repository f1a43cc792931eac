import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ToolSearchError } from '@tool-search/core';
import type { SignInStore, StoredSignIn } from './credentials.js';

/** The environment variable that holds the key of sign-ins kept in a shared store. */
export const SIGN_IN_KEY_ENV = 'TOOL_SEARCH_SIGN_IN_KEY';

/**
 * Reads the operator's key for sign-ins in a shared store: 32 bytes, as base64 or hex.
 *
 * @param text - the key as written (e.g. the value of {@link SIGN_IN_KEY_ENV})
 * @returns the 32 key bytes
 * @throws {@link ToolSearchError} `upstream_sign_in_failed` when absent or not 32 bytes
 */
export function parseSignInKey(text: string | undefined): Buffer {
  const trimmed = text?.trim() ?? '';
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (bytes.length !== 32) {
    throw new ToolSearchError(
      'upstream_sign_in_failed',
      `sign-ins in a shared store are encrypted with a key of 32 bytes (base64 or hex) in ${SIGN_IN_KEY_ENV}; ${trimmed === '' ? 'it is not set' : 'it is not 32 bytes'}. Make one with: openssl rand -base64 32`,
    );
  }
  return bytes;
}

/** A string value store (a Redis hash, a map): what a sealed store keeps its ciphertexts in. */
export interface SealedValues {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts a record with AES-256-GCM: `v1.` + base64 of iv, tag and ciphertext. The key
 * of the record is the associated data, so a ciphertext moved to another key does not open.
 */
function seal(key: Buffer, name: string, record: StoredSignIn): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name));
  const body = Buffer.concat([cipher.update(JSON.stringify(record), 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

function unseal(key: Buffer, name: string, text: string): StoredSignIn | undefined {
  if (!text.startsWith('v1.')) return undefined;
  const raw = Buffer.from(text.slice(3), 'base64');
  if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(name));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    const record = JSON.parse(plain) as StoredSignIn;
    return record.version === 1 ? record : undefined;
  } catch {
    // Another key, or a value tampered with: as if there were none (sign in again).
    return undefined;
  }
}

/**
 * A {@link SignInStore} over any string store, each record encrypted (AES-256-GCM) with
 * the operator's key, so that a dump of the store does not give the tokens away.
 *
 * @param values - where the ciphertexts live
 * @param key - the 32-byte key ({@link parseSignInKey})
 * @returns the store
 * @throws nothing when made
 */
export function createSealedSignInStore(values: SealedValues, key: Buffer): SignInStore {
  return {
    async load(name) {
      const text = await values.get(name);
      return text === undefined ? undefined : unseal(key, name, text);
    },
    async save(name, record) {
      await values.set(name, seal(key, name, record));
    },
    delete: (name) => values.delete(name),
  };
}
