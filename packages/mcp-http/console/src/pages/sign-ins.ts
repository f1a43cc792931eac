import { get } from '../api.js';
import { h, replace, table } from '../dom.js';
import { every, type Page } from './types.js';

interface SignIn {
  server: string;
  kind: 'oauth' | 'client_credentials';
  state: 'signed-in' | 'needs-sign-in';
  expiresAt?: number;
  refreshable: boolean;
  issuer?: string;
  scope?: string;
  profile?: string;
  /** The command that signs in, for a server that needs it. */
  signIn?: string;
}

function expiry(line: SignIn): string {
  if (line.expiresAt === undefined) return '';
  const minutes = Math.round((line.expiresAt - Date.now()) / 60_000);
  return minutes >= 0
    ? `in ${minutes} min`
    : `expired${line.refreshable ? ' (refreshes on use)' : ''}`;
}

/**
 * The upstream servers that need sign-in: each one's state and expiry, and for one that
 * needs it the command that signs in (it prints the URL to open; the redirect comes back
 * to a loopback port of that command). Never a token.
 */
export const signInsPage: Page = (main) => {
  const body = h('div');
  replace(main, h('h2', {}, 'Sign-in to upstream servers'), body);
  return every(10_000, async () => {
    const { signIns } = await get<{ signIns: SignIn[] }>('sign-ins');
    replace(
      body,
      signIns.length === 0
        ? h('p', { class: 'muted' }, 'No server of this gateway needs sign-in.')
        : table(
            'Servers that need sign-in',
            ['Server', 'Account', 'State', 'Expires', 'Issuer', 'Scopes', 'Sign in'],
            signIns.map((line) => [
              line.server,
              line.kind === 'client_credentials'
                ? 'machine account'
                : (line.profile ?? 'the gateway'),
              line.state === 'signed-in' ? 'signed in' : 'needs sign-in',
              expiry(line),
              line.issuer ?? '',
              line.scope ?? '',
              line.signIn === undefined ? '' : h('code', {}, line.signIn),
            ]),
          ),
    );
  });
};
