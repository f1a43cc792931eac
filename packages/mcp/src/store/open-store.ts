import { ToolSearchError } from '@tool-search/core';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore, type RedisStoreOptions } from './redis-store.js';
import type { GatewayStore } from './types.js';

/**
 * Opens the store a `--store` flag or the config's `store` names: `memory` (or
 * nothing) for the in-memory store, a `redis://host:port[/db]` or `rediss://…` URL
 * for Redis (or Valkey), connecting in the background.
 *
 * @param spec - `memory`, a Redis URL, or undefined @defaultValue 'memory'
 * @param options - the Redis store's other options (ignored for memory)
 * @returns the store
 * @throws {@link ToolSearchError} `invalid_config` for anything else
 */
export function openGatewayStore(
  spec: string | undefined,
  options: Omit<RedisStoreOptions, 'url'> = {},
): GatewayStore {
  const text = spec?.trim() ?? 'memory';
  if (text === '' || text === 'memory') return createMemoryStore();
  if (/^rediss?:\/\//i.test(text)) return createRedisStore({ ...options, url: text });
  throw new ToolSearchError(
    'invalid_config',
    `The store must be 'memory' or a redis://host:port[/db] URL (Valkey too), got '${text}'.`,
    { data: { field: 'store' } },
  );
}
