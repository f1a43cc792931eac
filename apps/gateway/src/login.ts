import { ToolSearchError } from '@tool-search/core';
import { sanitizeTerminalText } from '@tool-search/hooks';
import { signInToUpstream, signOutOfUpstream } from '@tool-search/mcp/auth';
import type { GatewayConfig, HttpServerConfig } from '@tool-search/mcp/config';
import { readConfigFile } from './config-file.js';
import { ConfigFileError } from './errors.js';
import type { LoginOptions } from './login-flags.js';
import { openSignInStore } from './sign-in-store.js';

/** `login` and `logout` as parsed: the server and the flags. */
export type LoginCommand = LoginOptions & { server: string };

/** The HTTP entry of `server` that signs in with `login`, or a config error saying why not. */
function oauthEntry(config: GatewayConfig, path: string, server: string): HttpServerConfig {
  const entry = config.mcpServers[server];
  if (entry === undefined) {
    const known = Object.keys(config.mcpServers);
    throw new ConfigFileError(
      `Unknown server '${server}': ${path} defines ${known.length ? known.map((name) => `'${name}'`).join(', ') : 'no servers'} under mcpServers.`,
    );
  }
  if (!('url' in entry) || entry.auth === undefined) {
    throw new ConfigFileError(
      `Server '${server}' in ${path} does not sign in: give its HTTP entry "auth": "oauth".`,
    );
  }
  if (entry.auth.type === 'client_credentials') {
    throw new ConfigFileError(
      `Server '${server}' in ${path} signs in as a machine account (client_credentials): serve gets its token itself, no login needed.`,
    );
  }
  return entry;
}

function when(expiresAt: number | undefined): string {
  return expiresAt === undefined
    ? 'no expiry given'
    : `expires ${new Date(expiresAt).toISOString()}`;
}

/**
 * `tool-search-gateway login <server>`: signs the gateway (or a profile) in to a server
 * that needs OAuth. It prints `Open this URL to sign in: <url>` on a line of its own,
 * waits for the redirect on a loopback port, stores the tokens (never printed) and
 * exits 0.
 *
 * @param command - the server and flags
 * @returns 0 when signed in, 1 when the sign-in failed
 * @throws {@link ConfigFileError} for a bad config, an unknown server or profile, or a
 * server that does not sign in this way
 */
export async function runLogin(command: LoginCommand): Promise<number> {
  const config = await readConfigFile(command.config, command);
  const entry = oauthEntry(config, command.config, command.server);
  const auth = entry.auth;
  if (auth === undefined || auth.type !== 'oauth') return 2;
  const opened = await openSignInStore({
    configPath: command.config,
    config,
    store: command.store,
  });
  try {
    const summary = await signInToUpstream({
      server: command.server,
      url: entry.url,
      auth,
      store: opened.store,
      headers: entry.headers,
      ...(command.profile === undefined ? {} : { profile: command.profile }),
      onAuthorizationUrl: (url) => {
        process.stdout.write(`Open this URL to sign in: ${url.href}\n`);
        process.stderr.write('Waiting for the sign-in to come back (Ctrl-C to stop)...\n');
      },
    });
    const who = command.profile === undefined ? '' : ` as profile '${command.profile}'`;
    process.stdout.write(
      `Signed in to ${command.server}${who} (${when(summary.expiresAt)}${summary.refreshable ? ', refreshable' : ''}); kept in ${opened.location}\n`,
    );
    return 0;
  } catch (error) {
    const message = ToolSearchError.isInstance(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
    process.stderr.write(`error: ${sanitizeTerminalText(message)}\n`);
    return 1;
  } finally {
    await opened.close();
  }
}

/**
 * `tool-search-gateway logout <server>`: forgets the stored sign-in (tokens and client
 * registration) of the gateway, or of one profile.
 *
 * @param command - the server and flags
 * @returns 0 (also when there was none, which it says)
 * @throws {@link ConfigFileError} for a bad config, an unknown server or profile
 */
export async function runLogout(command: LoginCommand): Promise<number> {
  const config = await readConfigFile(command.config, command);
  oauthEntry(config, command.config, command.server);
  const opened = await openSignInStore({
    configPath: command.config,
    config,
    store: command.store,
  });
  try {
    const removed = await signOutOfUpstream({
      server: command.server,
      store: opened.store,
      ...(command.profile === undefined ? {} : { profile: command.profile }),
    });
    const who = command.profile === undefined ? '' : ` for profile '${command.profile}'`;
    process.stdout.write(
      removed
        ? `Signed out of ${command.server}${who}.\n`
        : `No sign-in to ${command.server}${who} was stored.\n`,
    );
    return 0;
  } finally {
    await opened.close();
  }
}
