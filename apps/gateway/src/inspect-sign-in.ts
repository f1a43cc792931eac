import {
  type SignInStore,
  type SignInSummary,
  signInKey,
  summarizeSignIn,
} from '@tool-search/mcp/auth';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { safeText } from './inspect-review.js';
import { openSignInStore } from './sign-in-store.js';

interface Output {
  write(text: string): unknown;
}

/** One server's sign-in as `inspect` and the console show it: never a token. */
export interface ServerSignIn extends SignInSummary {
  server: string;
  /** `oauth` (a person signs in with `login`) or `client_credentials` (a machine account). */
  kind: 'oauth' | 'client_credentials';
  /** The profile whose sign-in this is; absent: the gateway's own. */
  profile?: string;
}

/**
 * The sign-in state of every server of the config that signs in: for `oauth`, what the
 * store holds (signed in or not, expiry, refreshable, issuer, scopes); a machine account
 * is always `signed-in` as far as the config goes (serve gets its token itself).
 *
 * @param options.configPath - the config file
 * @param options.config - the config
 * @param options.store - the `--store` flag
 * @param options.profile - read this profile's sign-ins
 * @returns one line a server that signs in, in config order
 * @throws what opening the sign-in store throws
 */
export async function readSignIns(options: {
  configPath: string;
  config: GatewayConfig;
  store?: string | undefined;
  profile?: string | undefined;
}): Promise<ServerSignIn[]> {
  if (!needsSignIn(options.config)) return [];
  const opened = await openSignInStore(options);
  try {
    return await summarizeSignIns(options.config, opened.store, options.profile);
  } finally {
    await opened.close();
  }
}

/** Whether any server of the config signs in. */
export function needsSignIn(config: GatewayConfig): boolean {
  return Object.values(config.mcpServers).some(
    (entry) => 'url' in entry && entry.auth !== undefined,
  );
}

/**
 * The sign-in state of every server of the config that signs in, from an open store.
 *
 * @param config - the config
 * @param store - where sign-ins are kept
 * @param profile - read this profile's sign-ins (absent: the gateway's own)
 * @returns one line a server that signs in, in config order
 * @throws nothing (a record that cannot be read reads as none)
 */
export async function summarizeSignIns(
  config: GatewayConfig,
  store: SignInStore,
  profile?: string,
): Promise<ServerSignIn[]> {
  const who = profile === undefined ? {} : { profile };
  const lines: ServerSignIn[] = [];
  for (const [server, entry] of Object.entries(config.mcpServers)) {
    if (!('url' in entry) || entry.auth === undefined) continue;
    if (entry.auth.type === 'client_credentials') {
      lines.push({
        server,
        kind: 'client_credentials',
        state: 'signed-in',
        refreshable: false,
        ...who,
      });
      continue;
    }
    const record = await store.load(signInKey(server, profile)).catch(() => undefined);
    const usable = record !== undefined && record.serverUrl === entry.url ? record : undefined;
    lines.push({ server, kind: 'oauth', ...summarizeSignIn(usable), ...who });
  }
  return lines;
}

/**
 * The sign-in of each profile of the config to each server it signs in to on its own
 * (`auth.perProfile`): what the console lists beside the gateway's own.
 *
 * @param config - the config
 * @param store - where sign-ins are kept
 * @param except - a profile to leave out (the one already listed)
 * @returns one line a profile and server, profiles in config order
 * @throws nothing (a record that cannot be read reads as none)
 */
export async function summarizeProfileSignIns(
  config: GatewayConfig,
  store: SignInStore,
  except?: string,
): Promise<ServerSignIn[]> {
  const perProfile = Object.fromEntries(
    Object.entries(config.mcpServers).filter(
      ([, entry]) => 'url' in entry && entry.auth?.type === 'oauth' && entry.auth.perProfile,
    ),
  );
  if (Object.keys(perProfile).length === 0) return [];
  const only = { ...config, mcpServers: perProfile };
  const lines: ServerSignIn[] = [];
  for (const profile of Object.keys(config.profiles ?? {})) {
    if (profile !== except) lines.push(...(await summarizeSignIns(only, store, profile)));
  }
  return lines;
}

function expiry(line: ServerSignIn, now: number): string {
  if (line.expiresAt === undefined) return '';
  const minutes = Math.round((line.expiresAt - now) / 60_000);
  const at = new Date(line.expiresAt).toISOString();
  return minutes >= 0
    ? `, expires ${at} (in ${minutes} min)`
    : `, expired ${at}${line.refreshable ? ' (refreshes on next use)' : ''}`;
}

/**
 * Prints the servers that sign in, with their state: what `inspect` shows after its
 * server table. Prints nothing when no server signs in.
 *
 * @param lines - from {@link readSignIns}
 * @param out - where to print
 * @param now - the time @defaultValue Date.now()
 */
export function printSignIns(lines: readonly ServerSignIn[], out: Output, now = Date.now()): void {
  if (lines.length === 0) return;
  const profile = lines[0]?.profile;
  out.write(`\nsign-in${profile === undefined ? '' : ` (profile ${safeText(profile)})`}:\n`);
  for (const line of lines) {
    const name = safeText(line.server);
    if (line.kind === 'client_credentials') {
      out.write(`  ${name}: machine account (client credentials; serve gets its token itself)\n`);
    } else if (line.state === 'needs-sign-in') {
      out.write(
        `  ${name}: needs sign-in: run tool-search-gateway login ${name}${profile === undefined ? '' : ` --profile ${safeText(profile)}`} --config <file>\n`,
      );
    } else {
      const issuer = line.issuer === undefined ? '' : ` at ${safeText(line.issuer)}`;
      const scope = line.scope === undefined ? '' : `, scopes ${safeText(line.scope)}`;
      out.write(
        `  ${name}: signed in${issuer}${expiry(line, now)}${line.refreshable ? ', refreshable' : ''}${scope}\n`,
      );
    }
  }
}
