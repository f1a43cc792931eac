import type { ServerResponse } from 'node:http';
import { sendJson } from './console-http.js';

/**
 * One upstream's sign-in as the console shows it (what `inspect` prints): never a token.
 * The host (the gateway app) reads it from where sign-ins are kept.
 */
export interface ConsoleSignIn {
  /** The server's name. */
  server: string;
  /** `oauth` (a person signs in) or `client_credentials` (a machine account). */
  kind: 'oauth' | 'client_credentials';
  /** Whether a usable sign-in is held. */
  state: 'signed-in' | 'needs-sign-in';
  /** When the access token expires (epoch ms), when known. */
  expiresAt?: number;
  /** Whether it renews itself (a refresh token is held). */
  refreshable: boolean;
  /** The authorization server. */
  issuer?: string;
  /** The scopes granted. */
  scope?: string;
  /** The profile whose sign-in this is; absent: the gateway's own. */
  profile?: string;
}

/** Reads the sign-ins of the gateway's servers (the console's `signIns` option). */
export type ConsoleSignInReader = () => Promise<readonly ConsoleSignIn[]>;

/** Only the fields of {@link ConsoleSignIn}: a reader that returns more never leaks it. */
function publicFields(line: ConsoleSignIn): ConsoleSignIn {
  return {
    server: line.server,
    kind: line.kind,
    state: line.state,
    refreshable: line.refreshable,
    ...(line.expiresAt === undefined ? {} : { expiresAt: line.expiresAt }),
    ...(line.issuer === undefined ? {} : { issuer: line.issuer }),
    ...(line.scope === undefined ? {} : { scope: line.scope }),
    ...(line.profile === undefined ? {} : { profile: line.profile }),
  };
}

/**
 * `GET /console/api/sign-ins`: each server that signs in, its state and expiry, and for one
 * that needs it the command that signs in (`login` prints the URL to open). Read-only.
 */
export async function signIns({
  res,
  state,
}: {
  res: ServerResponse;
  state: { options: { signIns?: ConsoleSignInReader | undefined } };
}): Promise<void> {
  const reader = state.options.signIns;
  const lines = reader === undefined ? [] : await reader().catch(() => undefined);
  if (lines === undefined) {
    sendJson(res, 503, { error: 'The sign-ins could not be read; try again.' });
    return;
  }
  sendJson(res, 200, {
    signIns: lines.map((line) => ({
      ...publicFields(line),
      ...(line.state === 'needs-sign-in' && line.kind === 'oauth'
        ? {
            signIn: `tool-search-gateway login ${line.server}${line.profile === undefined ? '' : ` --profile ${line.profile}`} --config <file>`,
          }
        : {}),
    })),
  });
}
