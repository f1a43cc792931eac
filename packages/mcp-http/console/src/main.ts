import { ApiError, get, post, setCsrf } from './api.js';
import { h, replace } from './dom.js';
import { activityPage } from './pages/activity.js';
import { approvalsPage } from './pages/approvals.js';
import { overviewPage } from './pages/overview.js';
import { searchPage } from './pages/search.js';
import { sessionsPage } from './pages/sessions.js';
import { signInsPage } from './pages/sign-ins.js';
import { toolsPage } from './pages/tools.js';
import type { Page } from './pages/types.js';

const PAGES: { id: string; title: string; page: Page }[] = [
  { id: 'overview', title: 'Overview', page: overviewPage },
  { id: 'approvals', title: 'Approvals', page: approvalsPage },
  { id: 'activity', title: 'Activity', page: activityPage },
  { id: 'tools', title: 'Tools', page: toolsPage },
  { id: 'search', title: 'Search', page: searchPage },
  { id: 'sessions', title: 'Sessions and upstreams', page: sessionsPage },
  { id: 'sign-ins', title: 'Sign-in', page: signInsPage },
];

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;
const status = document.getElementById('status')!;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;
const say = (text: string) => {
  status.textContent = text;
};
let stop = () => {};

function show(): void {
  stop();
  const id = location.hash.slice(1) || 'approvals';
  const entry = PAGES.find((page) => page.id === id) ?? PAGES[1]!;
  for (const link of nav.querySelectorAll('a')) {
    if (link.dataset['page'] === entry.id) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${entry.title} · gateway console`;
  // Each visit draws into a fresh container: a page's late answers land in a detached
  // one, never over the page shown now.
  const container = h('div', { 'data-page-container': entry.id });
  replace(main, container);
  stop = entry.page(container, say);
}

function signedIn(principal: string): void {
  replace(
    nav,
    PAGES.map(({ id, title }) => h('a', { href: `#${id}`, 'data-page': id }, title)),
  );
  nav.hidden = false;
  signOut.hidden = false;
  say(
    `Signed in with ${principal === 'default' ? 'the gateway token' : principal.replace('profile:', 'the token of profile ')}.`,
  );
  window.addEventListener('hashchange', show);
  show();
}

function signInForm(message?: string): void {
  const token = h('input', {
    id: 'token',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  replace(
    main,
    h('h2', {}, 'Sign in'),
    h('p', {}, 'Use the gateway token, or the token of a profile marked "operator": true.'),
    message ? h('p', { role: 'alert', class: 'status-denied' }, message) : null,
    h(
      'form',
      {
        id: 'sign-in',
        onsubmit: (event: Event) => {
          event.preventDefault();
          post<{ principal: string; csrf: string }>('login', { token: token.value })
            .then(({ principal, csrf }) => {
              setCsrf(csrf);
              signedIn(principal);
            })
            .catch((error: Error) => signInForm(error.message));
        },
      },
      h('label', { for: 'token' }, 'Token'),
      token,
      ' ',
      h('button', { type: 'submit' }, 'Sign in'),
    ),
  );
  token.focus();
}

signOut.addEventListener('click', () => {
  void post('logout').finally(() => location.reload());
});

get<{ principal: string; csrf: string }>('me')
  .then(({ principal, csrf }) => {
    setCsrf(csrf);
    signedIn(principal);
  })
  .catch((error: unknown) =>
    signInForm(error instanceof ApiError && error.status === 401 ? undefined : String(error)),
  );
