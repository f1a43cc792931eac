import { ToolSearchError } from '@tool-search/core';
import { createMemoryStore } from './memory-store.js';
import type { RedisStoreOptions } from './redis-store.js';
import type { GatewayStore } from './types.js';

/** The Redis store's entry, which loads `@redis/client` (an optional peer dependency). */
type RedisEntry = typeof import('./redis/index.js');

/** The package that the Redis store needs, named in the error when it is missing. */
const REDIS_PACKAGE = '@redis/client';

function isMissingPackage(error: unknown, name: string): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes(`'${name}'`)
  );
}

/**
 * Loads the Redis store's entry (`@tool-search/mcp/store/redis`) on first use, so that
 * the main entry never loads a Redis client.
 *
 * @param load - imports the entry (tests pass their own)
 * @returns the entry
 * @throws {@link ToolSearchError} `store_unavailable` naming `@redis/client` when that
 * package is not installed
 */
export async function loadRedisStoreEntry(
  load: () => Promise<RedisEntry> = () => import('./redis/index.js'),
): Promise<RedisEntry> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, REDIS_PACKAGE)) throw error;
    throw new ToolSearchError(
      'store_unavailable',
      `A redis:// store needs the package ${REDIS_PACKAGE}, which is not installed: run 'npm install ${REDIS_PACKAGE}' beside @tool-search/mcp.`,
      { cause: error, data: { field: 'store' } },
    );
  }
}

/**
 * Opens the store a `--store` flag or the config's `store` names: `memory` (or
 * nothing) for the in-memory store, a `redis://host:port[/db]` or `rediss://…` URL
 * for Redis (or Valkey), connecting in the background. The Redis store is loaded
 * only here, on first use: it needs the optional peer dependency `@redis/client`.
 *
 * @param spec - `memory`, a Redis URL, or undefined @defaultValue 'memory'
 * @param options - the Redis store's other options (ignored for memory)
 * @returns the store
 * @throws {@link ToolSearchError} `invalid_config` for anything else;
 * `store_unavailable` for a Redis URL when `@redis/client` is not installed
 */
export async function openGatewayStore(
  spec: string | undefined,
  options: Omit<RedisStoreOptions, 'url'> = {},
): Promise<GatewayStore> {
  const text = spec?.trim() ?? 'memory';
  if (text === '' || text === 'memory') return createMemoryStore();
  if (/^rediss?:\/\//i.test(text)) {
    const { createRedisStore } = await loadRedisStoreEntry();
    return createRedisStore({ ...options, url: text });
  }
  throw new ToolSearchError(
    'invalid_config',
    `The store must be 'memory' or a redis://host:port[/db] URL (Valkey too), got '${text}'.`,
    { data: { field: 'store' } },
  );
}
