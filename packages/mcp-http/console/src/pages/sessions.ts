import { get, post } from '../api.js';
import { duration, h, replace, table } from '../dom.js';
import { every, type Page } from './types.js';

interface Session {
  id: string;
  profile: string | null;
  tools: number;
  visible: number;
  deferred: number;
  activated: boolean;
  searches: number;
  calls: number;
  idleMs: number | null;
}

interface Upstream {
  name: string;
  state: string;
  transport: string | null;
  tools: number;
  held: number;
  rejected: number;
  error: string | null;
  reconnectAttempts: number;
}

/** Sessions of this replica (end one) and the upstream servers' state. */
export const sessionsPage: Page = (main, say) => {
  const sessionsTable = h('div');
  const upstreamsTable = h('div');
  replace(main, h('h2', {}, 'Sessions'), sessionsTable, h('h2', {}, 'Upstreams'), upstreamsTable);
  return every(3000, async () => {
    const [{ sessions }, { upstreams }] = await Promise.all([
      get<{ sessions: Session[] }>('sessions'),
      get<{ upstreams: Upstream[] }>('upstreams'),
    ]);
    replace(
      sessionsTable,
      table(
        'Open sessions of this replica',
        ['Session', 'Token', 'Tools', 'Listed / deferred', 'Searches', 'Calls', 'Idle', ''],
        sessions.map((session) => [
          session.id.slice(0, 8),
          session.profile ?? 'gateway token',
          String(session.tools),
          `${session.visible} / ${session.deferred}${session.activated ? '' : ' (search off)'}`,
          String(session.searches),
          String(session.calls),
          duration(session.idleMs),
          h(
            'button',
            {
              type: 'button',
              class: 'deny',
              'aria-label': `End session ${session.id.slice(0, 8)}`,
              onclick: () =>
                void post('sessions/end', { id: session.id })
                  .then(() => say(`Ended session ${session.id.slice(0, 8)}`))
                  .catch((error: Error) => say(error.message)),
            },
            'End',
          ),
        ]),
      ),
    );
    replace(
      upstreamsTable,
      table(
        'Upstream servers',
        [
          'Server',
          'State',
          'Transport',
          'Tools',
          'Held',
          'Refused',
          'Reconnects',
          'Last error',
          '',
        ],
        upstreams.map((server) => [
          server.name,
          server.state,
          server.transport ?? '',
          String(server.tools),
          String(server.held),
          String(server.rejected),
          String(server.reconnectAttempts),
          server.error ?? '',
          server.state === 'failed'
            ? h(
                'button',
                {
                  type: 'button',
                  'aria-label': `Reconnect ${server.name}`,
                  onclick: () =>
                    void post('upstreams/reconnect', { server: server.name })
                      .then(() => say(`Reconnecting ${server.name}`))
                      .catch((error: Error) => say(error.message)),
                },
                'Reconnect',
              )
            : '',
        ]),
      ),
    );
  });
};
