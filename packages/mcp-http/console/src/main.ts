import { ApiError, get, post, setCsrf } from './api.js';
import { h, replace } from './dom.js';
import { activityPage } from './pages/activity.js';
import { approvalsPage } from './pages/approvals.js';
import { overviewPage } from './pages/overview.js';
import { searchPage } from './pages/search.js';
import { serversPage } from './pages/servers.js';
import { sessionsPage } from './pages/sessions.js';
import { signInsPage } from './pages/sign-ins.js';
import { toolsPage } from './pages/tools.js';
import type { Page } from './pages/types.js';
import { notificationButton, watchWaiting } from './waiting.js';

const PAGES: { id: string; title: string; page: Page }[] = [
  { id: 'overview', title: 'Overview', page: overviewPage },
  { id: 'approvals', title: 'Approvals', page: approvalsPage },
  { id: 'activity', title: 'Activity', page: activityPage },
  { id: 'tools', title: 'Tools', page: toolsPage },
  { id: 'search', title: 'Search', page: searchPage },
  { id: 'sessions', title: 'Sessions and upstreams', page: sessionsPage },
  { id: 'servers', title: 'Servers', page: serversPage },
  { id: 'sign-ins', title: 'Sign-in', page: signInsPage },
];

const main = document.getElementById('main')!;
const actions = document.getElementById('actions')!;
const nav = document.getElementById('nav')!;
const status = document.getElementById('status')!;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;
const say = (text: string) => {
  status.textContent = text;
};
let stop = () => {};
let waiting = 0;
let pageTitle = '';

/** The tab title: the page, with the count of waiting calls first when there are any. */
function setTitle(): void {
  document.title = `${waiting > 0 ? `(${waiting}) ` : ''}${pageTitle} · gateway console`;
}

/** Shows the count of waiting calls on the Approvals link and in the title. */
function showWaiting(count: number): void {
  waiting = count;
  const badge = nav.querySelector<HTMLElement>('[data-waiting]');
  if (badge !== null) {
    badge.textContent = count > 0 ? String(count) : '';
    badge.hidden = count === 0;
    badge.setAttribute('aria-label', `${count} waiting`);
  }
  setTitle();
}

function show(): void {
  stop();
  // The last action's words belong to the page it was taken on.
  say('');
  const id = location.hash.slice(1) || 'approvals';
  const entry = PAGES.find((page) => page.id === id) ?? PAGES[1]!;
  for (const link of nav.querySelectorAll('a')) {
    if (link.dataset['page'] === entry.id) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  pageTitle = entry.title;
  setTitle();
  // Each visit draws into a fresh container: a page's late answers land in a detached
  // one, never over the page shown now.
  const container = h('div', { 'data-page-container': entry.id });
  replace(main, container);
  stop = entry.page(container, say);
}

function signedIn(principal: string): void {
  replace(
    nav,
    PAGES.map(({ id, title }) =>
      h(
        'a',
        { href: `#${id}`, 'data-page': id },
        title,
        id === 'approvals' ? h('span', { class: 'badge', 'data-waiting': '', hidden: true }) : null,
      ),
    ),
  );
  nav.hidden = false;
  signOut.hidden = false;
  replace(
    actions,
    h(
      'span',
      { class: 'muted', id: 'signed-in-as' },
      `Signed in with ${principal === 'default' ? 'the gateway token' : principal.replace('profile:', 'the token of profile ')}`,
    ),
    notificationButton(),
  );
  window.addEventListener('hashchange', show);
  show();
  watchWaiting(showWaiting);
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
