import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { answerPendingApproval, isApprovalDecision } from '@tool-search/mcp';
import { readJsonBody, securityHeaders, sendError, sendJson } from './console-http.js';
import { attachLearnedTerms } from './console-learning.js';
import { toolPolicies } from './console-policy.js';
import type { ConsoleHandler, ConsoleRequest } from './console-request.js';
import { consoleSearch } from './console-search.js';
import { CONSOLE_SERVER_CHANGES, CONSOLE_SERVER_READS } from './console-servers.js';
import { startSignIn } from './console-sign-in-flow.js';
import { signIns } from './console-sign-ins.js';
import { consoleTools } from './console-tools.js';
import { tryTool } from './console-try.js';

export type { ConsoleRequest } from './console-request.js';

type Handler = ConsoleHandler;

async function approvals({ res, state }: ConsoleRequest): Promise<void> {
  sendJson(res, 200, { approvals: await state.options.store.listPendingApprovals() });
}

async function activity({ res, url, state }: ConsoleRequest): Promise<void> {
  const count = Math.min(500, Math.max(1, Number(url.searchParams.get('count') ?? 200) || 200));
  sendJson(res, 200, { activity: await state.feed.recent(count) });
}

async function activityStream({ res, state }: ConsoleRequest): Promise<void> {
  state.feed.open(res, securityHeaders());
}

async function tools({ res, state }: ConsoleRequest): Promise<void> {
  const { pool, config } = state.options;
  const accepted = await state.rememberAccepted();
  const { contextWindow, learner } = state.options;
  const view = consoleTools(pool, config, accepted, state.acceptedSeen, {
    toolSearch: config.toolSearch,
    ...(contextWindow === undefined ? {} : { contextWindow }),
  });
  const policies = await toolPolicies(pool.tools(), config);
  const switchedOff = await state.options.store.switchedOffTools();
  for (const tool of view.tools) {
    const policy = tool.loading === 'held' ? undefined : policies.get(tool.name);
    if (policy !== undefined) tool.policy = policy;
    if (switchedOff.has(tool.key)) tool.switchedOff = true;
  }
  // A store that fails costs the page its learned terms, never the page.
  if (learner !== undefined) {
    attachLearnedTerms(
      view,
      await learner.export().catch(() => ({
        format: 'tool-search-learning' as const,
        version: 1 as const,
        profiles: {},
      })),
    );
  }
  sendJson(res, 200, view);
}

async function search({ res, url, state }: ConsoleRequest): Promise<void> {
  const query = url.searchParams.get('q') ?? '';
  const profileName = url.searchParams.get('profile') ?? '';
  const profiles = state.options.profiles?.() ?? state.options.config.profiles;
  const profile = profileName === '' ? undefined : profiles[profileName];
  if (profileName !== '' && profile === undefined) {
    sendError(res, 404, `No profile '${profileName}'.`);
    return;
  }
  const hits =
    query.trim() === ''
      ? []
      : await consoleSearch({
          tools: state.options.pool.tools(),
          profile,
          registry: state.registry,
          ranker: state.options.ranker,
          analyzer: state.analyzer,
          ...(state.options.learner === undefined
            ? {}
            : { learner: state.options.learner, profileName: profileName || undefined }),
          query,
          limit: 10,
        });
  sendJson(res, 200, {
    query,
    profiles: Object.keys(profiles),
    learning: state.options.learner !== undefined,
    hits,
  });
}

async function sessions({ res, state }: ConsoleRequest): Promise<void> {
  const now = Date.now();
  sendJson(res, 200, {
    sessions: state.options.sessions().map((session) => {
      const assembly = session.assembly();
      const telemetry = session.telemetry();
      const seen = state.lastSeen.get(session.id);
      return {
        id: session.id,
        profile: session.profile ?? null,
        tools: session.tools().length,
        visible: assembly.tools.length,
        deferred: assembly.deferred.length,
        activated: assembly.activated,
        searches: telemetry.searches,
        calls: telemetry.calls + telemetry.directCalls,
        idleMs: seen === undefined ? null : now - seen,
      };
    }),
  });
}

async function upstreams({ res, state }: ConsoleRequest): Promise<void> {
  sendJson(res, 200, {
    upstreams: state.options.pool.status().map((server) => ({
      name: server.name,
      state: server.state,
      transport: server.transport ?? null,
      tools: server.toolCount,
      held: server.heldTools.length,
      rejected: server.rejectedTools.length,
      error: server.error ?? null,
      reconnectAttempts: server.reconnectAttempts,
    })),
  });
}

async function overview({ res, state }: ConsoleRequest): Promise<void> {
  const recent = await state.feed.recent(2000);
  const hours = new Map<string, { calls: number; failures: number; denials: number }>();
  for (const line of recent) {
    if (line.kind !== 'call') continue;
    const hour = `${line.time.slice(0, 13)}:00`;
    const bucket = hours.get(hour) ?? { calls: 0, failures: 0, denials: 0 };
    bucket.calls += 1;
    if (line.status === 'denied') bucket.denials += 1;
    if (line.status === 'tool_error' || line.status === 'error') bucket.failures += 1;
    hours.set(hour, bucket);
  }
  sendJson(res, 200, {
    toolsServed: state.options.pool.tools().length,
    upstreams: state.options.pool.status().length,
    sessions: state.options.sessions().length,
    pendingApprovals: (await state.options.store.listPendingApprovals()).length,
    tokensSaved: [...state.samples, state.tokensSavedNow()],
    perHour: [...hours].map(([hour, counts]) => ({ hour, ...counts })),
  });
}

async function answerApproval({ req, res, state, operator }: ConsoleRequest): Promise<void> {
  const body = await readJsonBody(req);
  const id = body?.['id'];
  const decision = body?.['decision'];
  if (typeof id !== 'string' || !isApprovalDecision(decision)) {
    sendError(res, 400, "Send { id, decision: 'allow-once' | 'allow-session' | 'deny' }.");
    return;
  }
  const routing = await answerPendingApproval(state.options.store, id, decision, operator);
  if (routing === 'delivered') sendJson(res, 200, { routing });
  else
    sendError(
      res,
      409,
      routing === 'orphaned'
        ? 'The gateway replica that held this call is gone; the call ended with it.'
        : 'Nothing waits under this id any more (answered, timed out or cancelled).',
    );
}

function reviewAction(action: 'accept' | 'hold'): Handler {
  return async ({ req, res, state }) => {
    const key = (await readJsonBody(req))?.['key'];
    if (typeof key !== 'string') {
      sendError(res, 400, 'Send { key: "server/tool" }.');
      return;
    }
    try {
      await state.review[action](key);
      sendJson(res, 200, { key, action });
    } catch (error) {
      sendError(
        res,
        ToolSearchError.isInstance(error) && error.code === 'invalid_argument' ? 404 : 503,
        describeError(error),
      );
    }
  };
}

async function switchTool({ req, res, state }: ConsoleRequest): Promise<void> {
  const body = await readJsonBody(req);
  const key = body?.['key'];
  const off = body?.['off'];
  const known = state.options.pool
    .tools()
    .some(
      (tool) => tool.origin !== undefined && `${tool.origin.server}/${tool.origin.name}` === key,
    );
  if (typeof key !== 'string' || typeof off !== 'boolean') {
    sendError(res, 400, 'Send { key: "server/tool", off: true | false }.');
    return;
  }
  // A tool can be switched on whatever it is now; only a served one can be switched off.
  if (off && !known) {
    sendError(res, 404, `No upstream serves the tool '${key}'.`);
    return;
  }
  await state.options.store.switchTool(key, off);
  sendJson(res, 200, { key, off });
}

async function endSession({ req, res, state }: ConsoleRequest): Promise<void> {
  const id = (await readJsonBody(req))?.['id'];
  const session = state.options.sessions().find((item) => item.id === id);
  if (session === undefined) {
    sendError(res, 404, 'No open session of that id on this replica.');
    return;
  }
  await session.close();
  sendJson(res, 200, { ended: session.id });
}

async function reconnect({ req, res, state }: ConsoleRequest): Promise<void> {
  const server = (await readJsonBody(req))?.['server'];
  const retry = state.options.pool.retry;
  if (typeof server !== 'string' || retry === undefined) {
    sendError(res, 400, 'Send { server: "<name>" } to a gateway whose pool can retry.');
    return;
  }
  const outcome = retry(server);
  if (outcome === 'unknown') sendError(res, 404, `No upstream server '${server}'.`);
  else if (outcome === 'not_failed' || outcome === 'off') {
    sendError(
      res,
      409,
      outcome === 'off'
        ? 'Reconnecting is off for this gateway.'
        : `'${server}' is not failed: the pool reconnects it on its own.`,
    );
  } else sendJson(res, 200, { server, retry: outcome });
}

/** The console's reads (GET), by path below `/console/api/`. */
export const CONSOLE_READS: Readonly<Record<string, Handler>> = {
  approvals,
  activity,
  'activity/stream': activityStream,
  tools,
  search,
  sessions,
  upstreams,
  overview,
  ...CONSOLE_SERVER_READS,
  'sign-ins': signIns,
};

/** The console's changes (POST, CSRF-checked), by path below `/console/api/`. */
export const CONSOLE_CHANGES: Readonly<Record<string, Handler>> = {
  'approvals/answer': answerApproval,
  'tools/accept': reviewAction('accept'),
  'tools/hold': reviewAction('hold'),
  'sessions/end': endSession,
  'upstreams/reconnect': reconnect,
  ...CONSOLE_SERVER_CHANGES,
  'tools/try': tryTool,
  'tools/switch': switchTool,
  'sign-ins/start': startSignIn,
};
