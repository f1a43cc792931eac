import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '@tool-search/core/internal';
import { createSessionEventStore } from '../store/event-store.js';
import type { GatewayStore, StoredSession } from '../store/types.js';
import { replayInitialize, trackServerRequests } from './http-replicas.js';
import { reply, storeFailure } from './http-reply.js';
import type { SessionActivity, SessionTable, TableEntry } from './http-session-table.js';
import type { GatewaySession } from './types.js';

/** A session as the HTTP listener keeps it. */
export interface HttpSession extends TableEntry {
  transport: StreamableHTTPServerTransport;
  session: GatewaySession;
  /** Hands a routed answer to this session's server when it asked for it (shared store). */
  deliver?: (message: JSONRPCMessage) => boolean;
}

/** What {@link createSessionFactory} needs of its listener. */
export interface SessionFactoryContext {
  createSession(profile: string | undefined, id: string): GatewaySession;
  /** The shared store, when sessions are shared between replicas. */
  store: GatewayStore | undefined;
  /** This replica's id, unique across replicas: the answers to its questions come to it. */
  replica: string;
  sessions: SessionTable<HttpSession>;
  describePrincipal: (principal: string) => string;
  onStoreError?: (message: string) => void;
}

/**
 * How an HTTP listener opens sessions: `open` creates a session's server and
 * transport (with the store's event store and routed answers when shared); `restore`
 * rebuilds on this replica a session another replica opened.
 *
 * @param context - the listener's session table, store and session maker
 * @returns `open` and `restore`
 * @throws nothing
 */
export function createSessionFactory(context: SessionFactoryContext) {
  const { store, sessions, describePrincipal } = context;
  const host = context;
  /**
   * Creates a session's server and transport and puts them in the table (not
   * connected). `profile` is the one the request's token selects in this replica's
   * config: a stored record is a cache of how the session began, never what scopes it.
   */
  const open = (
    record: StoredSession,
    profile: string | undefined,
    onInitialized: () => void,
  ): HttpSession => {
    const { id, principal } = record;
    const session = context.createSession(profile, id);
    const activity: SessionActivity = { inFlight: 0, lastSeen: Date.now() };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: onInitialized,
      onsessionclosed: () => {
        sessions.delete(id);
        // Only a client's DELETE ends a session everywhere; a replica that stops or
        // forgets an idle copy leaves it to the others.
        store?.deleteSession(id, principal).catch((error: unknown) => {
          host.onStoreError?.(
            `session ${id} was closed but stays in the store until it expires: ${describeError(error)}`,
          );
        });
      },
      ...(store === undefined
        ? {}
        : {
            eventStore: createSessionEventStore(store, id, (error) =>
              host.onStoreError?.(
                `a message of session ${id} was sent but not stored, so it cannot be resumed: ${describeError(error)}`,
              ),
            ),
          }),
    });
    const entry: HttpSession = {
      transport,
      session,
      principal,
      activity,
      close: () => {
        transport.close().catch(() => {});
      },
      ...(store === undefined
        ? {}
        : {
            deliver: trackServerRequests(transport, {
              store,
              sessionId: id,
              replica: context.replica,
              ...(host.onStoreError === undefined ? {} : { onStoreError: host.onStoreError }),
            }),
          }),
    };
    // In the table before the first await: concurrent initializations count at once.
    sessions.add(id, entry);
    transport.onclose = () => {
      sessions.delete(id);
      void session.close();
    };
    return entry;
  };

  // Sessions being rebuilt on this replica, so that concurrent requests share one.
  const restoring = new Map<string, Promise<HttpSession | undefined>>();
  /**
   * Rebuilds a stored session here, scoped by `profile` (what the request's token
   * selects in this replica's config, whatever the record says); replies and resolves
   * undefined when it cannot.
   */
  const restore = async (
    id: string,
    auth: { principal: string; profile: string | undefined },
    res: ServerResponse,
  ): Promise<HttpSession | undefined> => {
    const { principal } = auth;
    let record: StoredSession | undefined;
    try {
      record = await store!.getSession(id);
    } catch (error) {
      reply(res, 503, storeFailure(error), { 'retry-after': '2' });
      return undefined;
    }
    if (record === undefined) {
      reply(res, 404, 'Session not found: initialize a new session');
      return undefined;
    }
    if (record.principal !== principal) {
      reply(res, 403, 'Forbidden: this session belongs to another client');
      return undefined;
    }
    const pending = restoring.get(id);
    if (pending !== undefined) {
      const shared = await pending;
      if (shared === undefined)
        reply(res, 503, `Session ${id} could not be restored here; try again.`);
      return shared;
    }
    const found = record;
    const rebuilding = (async () => {
      const admission = sessions.admit(principal, describePrincipal);
      if (!admission.ok) {
        reply(res, 503, admission.message);
        return undefined;
      }
      const entry = open(found, auth.profile, () => {});
      try {
        await entry.session.server.connect(entry.transport);
        await replayInitialize(entry.transport, found);
        return entry;
      } catch (error) {
        sessions.delete(id);
        await entry.session.close();
        reply(res, 500, `Internal error: ${describeError(error)}`);
        return undefined;
      }
    })();
    restoring.set(id, rebuilding);
    try {
      return await rebuilding;
    } finally {
      restoring.delete(id);
    }
  };

  return { open, restore };
}
