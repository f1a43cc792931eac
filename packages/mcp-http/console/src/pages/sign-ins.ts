import { get, post } from '../api.js';
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

/** Starts a sign-in whose redirect comes back to this console, and goes to its URL. */
async function startHere(line: SignIn, status: HTMLElement): Promise<void> {
  status.textContent = `Starting the sign-in to ${line.server}…`;
  try {
    const { url } = await post<{ url: string }>('sign-ins/start', {
      server: line.server,
      ...(line.profile === undefined ? {} : { profile: line.profile }),
    });
    window.location.assign(url);
  } catch (error) {
    status.textContent = `The sign-in did not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function signInCell(line: SignIn, status: HTMLElement) {
  if (line.signIn === undefined) return '';
  const command = h('code', {}, line.signIn);
  if (line.kind !== 'oauth') return command;
  const who = line.profile === undefined ? '' : ` as ${line.profile}`;
  const button = h(
    'button',
    { type: 'button', onclick: () => void startHere(line, status) },
    `Sign in${who}`,
  );
  return h('span', {}, button, ' or ', command);
}

/**
 * The upstream servers that need sign-in: each one's state and expiry, and for one that
 * needs it a button that signs in here (the redirect comes back to this gateway) and the
 * command that signs in from a shell. Never a token.
 */
export const signInsPage: Page = (main) => {
  const body = h('div');
  const status = h('p', { role: 'status', class: 'muted' });
  replace(main, h('h2', {}, 'Sign-in to upstream servers'), status, body);
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
              signInCell(line, status),
            ]),
          ),
    );
  });
};
