import { dirname, join, resolve } from 'node:path';
import {
  createFileSignInStore,
  parseSignInKey,
  SIGN_IN_KEY_ENV,
  type SignInStore,
} from '@tool-search/mcp/auth';
import type { GatewayConfig } from '@tool-search/mcp/config';

/** The environment variable that moves the gateway's state folder. */
export const STATE_DIR_ENV = 'TOOL_SEARCH_STATE_DIR';

/** The sign-in store a command uses, where it is, and what closes it. */
export interface OpenedSignInStore {
  store: SignInStore;
  /** Where the sign-ins are, for messages (a folder, or the Redis store; never a secret). */
  location: string;
  close(): Promise<void>;
}

/**
 * The gateway's state folder: `TOOL_SEARCH_STATE_DIR`, else `.tool-search` beside the
 * config file.
 *
 * @param configPath - the config file
 * @param env - the environment @defaultValue process.env
 * @returns the folder
 */
export function stateFolder(configPath: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[STATE_DIR_ENV];
  return fromEnv ? resolve(fromEnv) : join(dirname(resolve(configPath)), '.tool-search');
}

/**
 * Opens where sign-ins are kept: the replicas' Redis store (`--store`, else the config's
 * `store`), each sign-in encrypted with the key in `TOOL_SEARCH_SIGN_IN_KEY`; else owner-only
 * files in the state folder's `sign-ins`.
 *
 * @param options.configPath - the config file
 * @param options.config - the config
 * @param options.store - the `--store` flag
 * @returns the store
 * @throws `upstream_sign_in_failed` when a Redis store has no key; the Redis client's error
 */
export async function openSignInStore(options: {
  configPath: string;
  config: GatewayConfig;
  store?: string | undefined;
}): Promise<OpenedSignInStore> {
  const spec = options.store ?? options.config.store;
  if (spec !== undefined && /^rediss?:\/\//.test(spec)) {
    const key = parseSignInKey(process.env[SIGN_IN_KEY_ENV]);
    const { openRedisSignInStore, redactRedisUrl } = await import('@tool-search/mcp/store/redis');
    const store = await openRedisSignInStore({ url: spec, key });
    return { store, location: redactRedisUrl(spec), close: () => store.close() };
  }
  const folder = join(stateFolder(options.configPath), 'sign-ins');
  return { store: createFileSignInStore(folder), location: folder, close: async () => {} };
}
