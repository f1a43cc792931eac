import { describeError } from '@tool-search/core/internal';
import type { HttpRequestContext, HttpStep } from './http-chain.js';
import type { HttpFront } from './http-front.js';
import { readJson } from './http-limits.js';
import { routeResponses, splitAnswers } from './http-replicas.js';
import { reply, storeFailure } from './http-reply.js';
import type { HttpSession } from './http-session-factory.js';
import { trackActivity } from './http-session-table.js';

/** A POST to a session on a shared store: answers to elicitations go to the replica that asked. */
async function postToSharedSession(
  front: HttpFront,
  { req, res }: HttpRequestContext,
  sessionId: string,
  entry: HttpSession,
): Promise<void> {
  const store = front.store!;
  let body: unknown;
  try {
    body = await readJson(req, front.maxBodyBytes);
  } catch (error) {
    return reply(res, 400, `Bad request: ${describeError(error)}`);
  }
  const { answers, rest } = splitAnswers(body);
  if (answers.length > 0) {
    // An answer to an elicitation belongs to the one question it answers, which
    // the replica that asked (maybe another) is waiting on.
    let refused: string[];
    try {
      refused = await routeResponses(store, sessionId, answers);
    } catch (error) {
      return reply(res, 503, storeFailure(error), { 'retry-after': '2' });
    }
    if (refused.length > 0) return reply(res, 400, `Bad request: ${refused.join(' ')}`);
    if (rest === undefined) {
      res.writeHead(202).end();
      return;
    }
  }
  trackActivity(entry.activity, res);
  await entry.transport.handleRequest(req, res, rest);
}

/** Serves a request of a known `Mcp-Session-Id`. */
async function serveSession(
  front: HttpFront,
  context: HttpRequestContext,
  sessionId: string,
): Promise<void> {
  const { req, res } = context;
  const auth = context.auth!;
  const { sessions, store } = front;
  let entry = sessions.get(sessionId);
  if (entry === undefined && store !== undefined) {
    // Opened on another replica (or by this one before a restart): rebuild it here.
    const restored = await front.factory.restore(sessionId, auth, res);
    if (restored === undefined) return;
    entry = restored;
  }
  if (entry === undefined) return reply(res, 404, 'Session not found: initialize a new session');
  // A session belongs to the token that opened it: no switching scopes mid-session.
  if (entry.principal !== auth.principal) {
    return reply(res, 403, 'Forbidden: this session belongs to another client');
  }
  if (store !== undefined) {
    let alive: boolean;
    try {
      alive = await store.touchSession(sessionId, entry.principal, front.idleTimeoutMs);
    } catch (error) {
      return reply(res, 503, storeFailure(error), { 'retry-after': '2' });
    }
    if (!alive) {
      // Closed (DELETE) on another replica, or expired: this copy goes too.
      if (sessions.delete(sessionId)) entry.close();
      return reply(
        res,
        404,
        'Session not found: it was closed or expired; initialize a new session',
      );
    }
    if (req.method === 'POST') return postToSharedSession(front, context, sessionId, entry);
  }
  trackActivity(entry.activity, res);
  await entry.transport.handleRequest(req, res);
}

/**
 * The session step: a request that names a session (`Mcp-Session-Id`) is served by
 * that session, restored from a shared store when another replica opened it.
 *
 * @param front - the listener's sessions, store and limits
 * @returns the step
 * @throws nothing of its own; the transport's errors
 */
export function sessionStep(front: HttpFront): HttpStep {
  return async (context) => {
    const sessionId = context.req.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') return false;
    await serveSession(front, context, sessionId);
    return true;
  };
}
