import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '@tool-search/core/internal';
import type { StoredSession } from '@tool-search/mcp';
import type { HttpPrincipal, HttpStep } from './http-chain.js';
import type { HttpFront } from './http-front.js';
import { readJson } from './http-limits.js';
import { reply, storeFailure } from './http-reply.js';
import { trackActivity } from './http-session-table.js';

function refuseShuttingDown(res: ServerResponse): void {
  reply(res, 503, 'The gateway is shutting down: no new sessions.', { connection: 'close' });
}

/**
 * Admits a new session on the shared store, whose caps count every replica's sessions
 * (the store decides atomically), and keeps its record there.
 *
 * @returns whether it was admitted; when not, the request was answered
 */
async function admitShared(
  front: HttpFront,
  res: ServerResponse,
  record: StoredSession,
  auth: HttpPrincipal,
): Promise<boolean> {
  const store = front.store!;
  const { limits, idleTimeoutMs } = front;
  try {
    const shared = await store.admitSession(record.id, auth.principal, {
      maxSessions: limits.maxSessions,
      maxPerPrincipal: limits.maxSessionsPerPrincipal,
      idleMs: idleTimeoutMs,
    });
    if (!shared.ok) {
      const rule =
        shared.scope === 'principal'
          ? `Too many sessions for ${front.describePrincipal(auth.principal)}: it holds ${shared.held} across the gateway's replicas (the most one token may hold is ${limits.maxSessionsPerPrincipal}).`
          : `Too many sessions (${limits.maxSessions}) across the gateway's replicas.`;
      reply(
        res,
        503,
        `${rule} Close one (DELETE it) and try again; ${front.describeIdleExpiry(undefined)}`,
      );
      return false;
    }
    await store.putSession(record, idleTimeoutMs);
    return true;
  } catch (error) {
    await store.deleteSession(record.id, auth.principal).catch(() => {});
    reply(res, 503, storeFailure(error), { 'retry-after': '2' });
    return false;
  }
}

/**
 * The new-session step, the last: a request without a session must be a POST that
 * carries `initialize`; within the caps (this replica's, then the shared store's) it
 * opens a session, which is dropped again when the initialize does not complete.
 *
 * @param front - the listener's sessions, store and limits
 * @returns the step
 * @throws nothing of its own; the transport's errors
 */
export function newSessionStep(front: HttpFront): HttpStep {
  return async (context) => {
    const { req, res } = context;
    const auth = context.auth!;
    if (!front.accepting()) {
      refuseShuttingDown(res);
      return true;
    }
    if (req.method !== 'POST') {
      reply(res, 400, 'Bad request: no session; send initialize first');
      return true;
    }
    let body: unknown;
    try {
      body =
        context.body === undefined ? await readJson(req, front.maxBodyBytes) : context.body.value;
    } catch (error) {
      reply(res, 400, `Bad request: ${describeError(error)}`);
      return true;
    }
    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.find(isInitializeRequest);
    if (initialize === undefined) {
      reply(res, 400, 'Bad request: no session; send initialize first');
      return true;
    }
    if (!front.accepting()) {
      refuseShuttingDown(res);
      return true;
    }
    const admission = front.sessions.admit(auth.principal, front.describePrincipal);
    if (!admission.ok) {
      const retryAfter = front.idleExpiry();
      reply(
        res,
        503,
        `${admission.message} ${front.describeIdleExpiry(retryAfter)}`,
        retryAfter === undefined ? {} : { 'retry-after': String(Math.ceil(retryAfter / 1000)) },
      );
      return true;
    }
    const id = randomUUID();
    const record: StoredSession = {
      id,
      principal: auth.principal,
      ...(auth.profile === undefined ? {} : { profile: auth.profile }),
      initialize: initialize.params as unknown as Record<string, unknown>,
      createdAt: Date.now(),
    };
    if (front.store !== undefined && !(await admitShared(front, res, record, auth))) return true;
    let initialized = false;
    const entry = front.factory.open(record, auth.profile, () => {
      initialized = true;
    });
    trackActivity(entry.activity, res);
    await entry.session.server.connect(entry.transport);
    await entry.transport.handleRequest(req, res, body);
    if (!initialized) {
      front.sessions.delete(id);
      await entry.session.close();
      await front.store?.deleteSession(id, auth.principal).catch(() => {});
    }
    return true;
  };
}
