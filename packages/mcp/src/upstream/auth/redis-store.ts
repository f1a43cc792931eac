import { createClient } from '@redis/client';
import type { SignInStore } from './credentials.js';
import { createSealedSignInStore } from './sealed-store.js';

/** The Redis hash that holds the replicas' sign-ins (sealed). */
const SIGN_IN_HASH = 'tool-search:sign-ins';

/** A sign-in store in Redis and what closes its connection. */
export interface RedisSignInStore extends SignInStore {
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * A {@link SignInStore} in Redis for replicas: one hash field a sign-in, each encrypted
 * with the operator's key (AES-256-GCM), so every replica refreshes and uses the same
 * tokens and a dump of Redis does not give them away.
 *
 * @param options.url - `redis://host:port[/db]`
 * @param options.key - the 32-byte key (`parseSignInKey`)
 * @returns the store, connected
 * @throws the Redis client's error when it cannot connect
 */
export async function openRedisSignInStore(options: {
  url: string;
  key: Buffer;
}): Promise<RedisSignInStore> {
  const client = createClient({ url: options.url });
  client.on('error', () => {});
  await client.connect();
  const store = createSealedSignInStore(
    {
      async get(field) {
        const value = await client.hGet(SIGN_IN_HASH, field);
        return typeof value === 'string' ? value : undefined;
      },
      async set(field, value) {
        await client.hSet(SIGN_IN_HASH, field, value);
      },
      async delete(field) {
        return (await client.hDel(SIGN_IN_HASH, field)) > 0;
      },
    },
    options.key,
  );
  return {
    ...store,
    async close() {
      await client.close().catch(() => {});
    },
  };
}
