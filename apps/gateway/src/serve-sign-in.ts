import { createSignInBroker, createUpstreamAuthProviders } from '@tool-search/mcp/auth';
import type { GatewayConfig } from '@tool-search/mcp/config';
import type {
  ConsoleSignInFlow,
  ConsoleSignInReader,
  StartGatewayOptions,
} from '@tool-search/mcp-http';
import { needsSignIn, summarizeProfileSignIns, summarizeSignIns } from './inspect-sign-in.js';
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
 * @returns the `pool` options for `startGateway`, the console's reader of sign-ins, and what
 * closes the store (a Redis connection); or `{}`
 * @throws what opening the sign-in store throws (a Redis store without its key)
 */
export async function signInPoolOptions(options: {
  configPath: string;
  config: GatewayConfig;
  store?: string | undefined;
  profile?: string | undefined;
}): Promise<
  Pick<StartGatewayOptions, 'pool'> & {
    signIns?: ConsoleSignInReader;
    signInFlow?: ConsoleSignInFlow;
    close?: () => Promise<void>;
  }
> {
  if (!needsSignIn(options.config)) return {};
  const opened = await openSignInStore(options);
  // Sign-ins started from the console: the redirect comes back to the gateway's own route.
  const broker = createSignInBroker({
    store: opened.store,
    target: (server) => {
      const entry = Object.hasOwn(options.config.mcpServers, server)
        ? options.config.mcpServers[server]
        : undefined;
      if (entry === undefined || !('url' in entry) || entry.auth?.type !== 'oauth') {
        return undefined;
      }
      return {
        url: entry.url,
        auth: entry.auth,
        ...(entry.headers === undefined ? {} : { headers: entry.headers }),
      };
    },
  });
  return {
    close: async () => {
      await broker.close();
      await opened.close();
    },
    signInFlow: broker,
    pool: {
      authProvider: createUpstreamAuthProviders({
        store: opened.store,
        ...(options.profile === undefined ? {} : { profile: options.profile }),
      }),
    },
    // The console's sign-in section reads the same store (never a token): the gateway's
    // own sign-ins, then each profile's to the servers it signs in to itself.
    signIns: async () => [
      ...(await summarizeSignIns(options.config, opened.store, options.profile)),
      ...(await summarizeProfileSignIns(options.config, opened.store, options.profile)),
    ],
  };
}
