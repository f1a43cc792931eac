import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '@tool-search/core/internal';
import type { GatewaySession, GatewayStore, StoredSession } from '@tool-search/mcp';
import { createSessionEventStore } from './event-store.js';
import { DirectHttpTransport } from './http-direct-transport.js';
import { replayInitialize, trackServerRequests } from './http-replicas.js';
import { reply, storeFailure } from './http-reply.js';
import type { SessionActivity, SessionTable, TableEntry } from './http-session-table.js';

/** A session as the HTTP listener keeps it. */
export interface HttpSession extends TableEntry {
  /** The SDK's transport on a shared store; on this process alone, one with a direct hot path. */
  transport: StreamableHTTPServerTransport | DirectHttpTransport;
  session: GatewaySession;
  /** Hands a routed answer to this session's server when it asked for it (shared store). */
  deliver?: (message: JSONRPCMessage) => boolean;
}

/** What {@link createSessionFactory} needs of its listener. */
export interface SessionFactoryContext {
  createSession(profile: string | undefined, id: string, principal?: string): GatewaySession;
  /** The shared store, when sessions are shared between replicas. */
  store: GatewayStore | undefined;
  /** The largest request body a session's transport reads. */
  maxBodyBytes: number;
  /** This replica's id, unique across replicas: the answers to its questions come to it. */
  replica: string;
  sessions: SessionTable<HttpSession>;
  describePrincipal: (principal: string) => string;
  onStoreError?: (message: string) => void;
}

/** Sessions being rebuilt on this replica, so that concurrent requests share one. */
type Restoring = Map<string, Promise<HttpSession | undefined>>;

/** The caller of a request that names a stored session. */
interface RequestAuth {
  principal: string;
  profile: string | undefined;
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
  const restoring: Restoring = new Map();
  return {
    /**
     * Creates a session's server and transport and puts them in the table (not
     * connected). `profile` is the one the request's token selects in this replica's
     * config: a stored record is a cache of how the session began, never what scopes it.
     */
    open: (record: StoredSession, profile: string | undefined, onInitialized: () => void) =>
      openSession(context, record, profile, onInitialized),
    /**
     * Rebuilds a stored session here, scoped by `profile` (what the request's token
     * selects in this replica's config, whatever the record says); replies and resolves
     * undefined when it cannot.
     */
    restore: (id: string, auth: RequestAuth, res: ServerResponse) =>
      restoreSession(context, restoring, id, auth, res),
  };
}

function openSession(
  context: SessionFactoryContext,
  record: StoredSession,
  profile: string | undefined,
  onInitialized: () => void,
): HttpSession {
  const { store, sessions } = context;
  const { id, principal } = record;
  const session = context.createSession(profile, id, principal);
  const activity: SessionActivity = { inFlight: 0, lastSeen: Date.now() };
  const transport = createTransport(context, record, onInitialized);
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
            ...(context.onStoreError === undefined ? {} : { onStoreError: context.onStoreError }),
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
}

function createTransport(
  context: SessionFactoryContext,
  { id, principal }: StoredSession,
  onInitialized: () => void,
): StreamableHTTPServerTransport | DirectHttpTransport {
  const { store, sessions } = context;
  const options = {
    sessionIdGenerator: () => id,
    onsessioninitialized: onInitialized,
    onsessionclosed: () => {
      sessions.delete(id);
      // Only a client's DELETE ends a session everywhere; a replica that stops or
      // forgets an idle copy leaves it to the others.
      store?.deleteSession(id, principal).catch((error: unknown) => {
        context.onStoreError?.(
          `session ${id} was closed but stays in the store until it expires: ${describeError(error)}`,
        );
      });
    },
  };
  // On this process alone the hot path is served directly; on a shared store every
  // event is stored for resumption on any replica, which the SDK's transport does.
  if (store === undefined) return new DirectHttpTransport(options, context.maxBodyBytes);
  return new StreamableHTTPServerTransport({
    ...options,
    eventStore: createSessionEventStore(store, id, (error) =>
      context.onStoreError?.(
        `a message of session ${id} was sent but not stored, so it cannot be resumed: ${describeError(error)}`,
      ),
    ),
  });
}

async function restoreSession(
  context: SessionFactoryContext,
  restoring: Restoring,
  id: string,
  auth: RequestAuth,
  res: ServerResponse,
): Promise<HttpSession | undefined> {
  const record = await readOwnRecord(context, id, auth.principal, res);
  if (record === undefined) return undefined;
  const pending = restoring.get(id);
  if (pending !== undefined) {
    const shared = await pending;
    if (shared === undefined)
      reply(res, 503, `Session ${id} could not be restored here; try again.`);
    return shared;
  }
  const rebuilding = rebuild(context, record, auth, res);
  restoring.set(id, rebuilding);
  try {
    return await rebuilding;
  } finally {
    restoring.delete(id);
  }
}

/** The stored record of the session, when it exists and belongs to the caller; else replies. */
async function readOwnRecord(
  context: SessionFactoryContext,
  id: string,
  principal: string,
  res: ServerResponse,
): Promise<StoredSession | undefined> {
  let record: StoredSession | undefined;
  try {
    record = await context.store!.getSession(id);
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
  return record;
}

async function rebuild(
  context: SessionFactoryContext,
  record: StoredSession,
  auth: RequestAuth,
  res: ServerResponse,
): Promise<HttpSession | undefined> {
  const { sessions } = context;
  const admission = sessions.admit(auth.principal, context.describePrincipal);
  if (!admission.ok) {
    reply(res, 503, admission.message);
    return undefined;
  }
  const entry = openSession(context, record, auth.profile, () => {});
  try {
    await entry.session.server.connect(entry.transport);
    await replayInitialize(entry.transport, record);
    return entry;
  } catch (error) {
    sessions.delete(record.id);
    await entry.session.close();
    reply(res, 500, `Internal error: ${describeError(error)}`);
    return undefined;
  }
}
