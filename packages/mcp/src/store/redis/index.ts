/**
 * The Redis (or Valkey) gateway store, shared by several gateway replicas. It runs on
 * `@redis/client`, an optional peer dependency: install it beside `@tool-search/mcp`
 * (`npm install @redis/client`). Only this entry loads it; {@link startGateway} with a
 * `redis://` store URL imports this entry when it needs it.
 *
 * @example
 * ```ts
 * import { startGateway } from '@tool-search/mcp';
 * import { createRedisStore } from '@tool-search/mcp/store/redis';
 *
 * const store = createRedisStore({ url: 'redis://127.0.0.1:6379/0', prefix: 'team-a:' });
 * const gateway = await startGateway({ config, http: true, store });
 * ```
 *
 * @packageDocumentation
 */

export type { SignInStore, StoredSignIn } from '../../upstream/auth/credentials.js';
export type { RedisSignInStore } from '../../upstream/auth/redis-store.js';
export { openRedisSignInStore } from '../../upstream/auth/redis-store.js';
export type { RedisStoreOptions } from '../redis-store.js';
export { createRedisStore, redactRedisUrl } from '../redis-store.js';
