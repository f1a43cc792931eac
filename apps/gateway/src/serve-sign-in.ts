import { createUpstreamAuthProviders } from '@tool-search/mcp/auth';
import type { GatewayConfig } from '@tool-search/mcp/config';
import type { StartGatewayOptions } from '@tool-search/mcp-http';
import { openSignInStore } from './sign-in-store.js';

/**
 * The pool options that let `serve` (and `inspect`) reach servers that need sign-in: each
 * such server's transport gets an OAuth client over the stored sign-ins (the profile's
 * own with `profile`, never the gateway's then), or a machine account's. Nothing when no
 * server has `auth`.
 *
 * @param options.configPath - the config file
 * @param options.config - the config
 * @param options.store - the `--store` flag
 * @param options.profile - the profile whose sign-ins to use
 * @returns the `pool` options to spread into `startGateway`'s, or `{}`
 * @throws what opening the sign-in store throws (a Redis store without its key)
 */
export async function signInPoolOptions(options: {
  configPath: string;
  config: GatewayConfig;
  store?: string | undefined;
  profile?: string | undefined;
}): Promise<Pick<StartGatewayOptions, 'pool'>> {
  const needs = Object.values(options.config.mcpServers).some(
    (entry) => 'url' in entry && entry.auth !== undefined,
  );
  if (!needs) return {};
  const opened = await openSignInStore(options);
  return {
    pool: {
      authProvider: createUpstreamAuthProviders({
        store: opened.store,
        ...(options.profile === undefined ? {} : { profile: options.profile }),
      }),
    },
  };
}
