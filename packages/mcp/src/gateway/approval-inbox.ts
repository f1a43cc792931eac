import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type {
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
} from '@tool-search/hooks';
import type { AnswerRouting, GatewayStore, PendingApproval } from '../store/types.js';

const DECISIONS: readonly ApprovalDecision[] = ['allow-once', 'allow-session', 'deny'];

/**
 * Whether a value is one of the three approval decisions (`allow-once`, `allow-session`,
 * `deny`): what an inbox's answerer checks an operator's answer with.
 *
 * @param value - anything
 * @returns whether it is a decision
 * @throws nothing
 */
export function isApprovalDecision(value: unknown): value is ApprovalDecision {
  return typeof value === 'string' && (DECISIONS as readonly string[]).includes(value);
}

/** Who waits for an answer: the calls of this replica in the approvals inbox. */
export interface ApprovalInbox {
  /**
   * The approval adapter of one session: each question goes into the store's approvals
   * inbox (so that every replica's console lists it) and waits for an operator.
   *
   * @param session - the session's id and profile
   * @returns the adapter; its `request` never rejects (a store that is down denies)
   */
  adapter(session: { id: string; profile?: string }): ApprovalAdapter;
  /** Stops listening for answers; calls still waiting are denied. */
  close(): Promise<void>;
}

/** An operator's answer as it reaches the replica that asked: the decision and who gave it. */
type Answer = { decision: ApprovalDecision; by?: string };
type Waiting = (answer: Answer) => void;

function answerIn(message: JSONRPCMessage): Answer {
  const result =
    'result' in message ? (message.result as { decision?: unknown; by?: unknown }) : undefined;
  const decision = isApprovalDecision(result?.decision) ? result.decision : 'deny';
  return typeof result?.by === 'string' && result.by !== ''
    ? { decision, by: result.by.slice(0, 200) }
    : { decision };
}

/** The record of one call waiting in the inbox. */
function pendingOf(
  request: ApprovalRequest,
  session: { id: string; profile?: string },
  timeoutMs: number,
): PendingApproval {
  const { call, tool } = request;
  const origin = tool !== undefined && tool.name === call.name ? tool.origin : undefined;
  const askedAt = Date.now();
  return {
    id: randomUUID(),
    sessionId: session.id,
    ...(session.profile === undefined ? {} : { profile: session.profile }),
    tool: call.name,
    ...(origin === undefined ? {} : { origin: { server: origin.server, name: origin.name } }),
    ...(tool?.toolset === undefined ? {} : { toolset: tool.toolset }),
    arguments: call.arguments,
    ...(request.via === undefined ? {} : { via: request.via }),
    ...(typeof request.context?.programId === 'string'
      ? { programId: request.context.programId }
      : {}),
    ...(tool?.annotations?.destructiveHint === true ? { destructive: true } : {}),
    askedAt,
    expiresAt: askedAt + timeoutMs,
  };
}

/** One replica's inbox: its channel in the store and the calls it holds. */
class InboxState {
  readonly replica = `console:${randomUUID()}`;
  readonly waiting = new Map<string, Waiting>();
  private subscribed: Promise<() => Promise<void>> | undefined;

  constructor(
    readonly store: GatewayStore,
    readonly timeoutMs: number,
  ) {}

  listen(): Promise<() => Promise<void>> {
    this.subscribed ??= this.store.subscribe(this.replica, ({ message }) => {
      const id = 'id' in message ? message.id : undefined;
      if (typeof id === 'string') this.waiting.get(id)?.(answerIn(message));
    });
    return this.subscribed;
  }

  async ask(pending: PendingApproval, signal: AbortSignal | undefined): Promise<ApprovalAnswer> {
    await this.listen();
    const answered = new Promise<Answer | 'timeout' | 'cancelled'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
      const onAbort = () => resolve('cancelled');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(pending.id, (answer) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
    await this.store.openQuestion({
      sessionId: pending.sessionId,
      questionId: pending.id,
      replica: this.replica,
    });
    await this.store.putPendingApproval(pending);
    const outcome = await answered;
    this.waiting.delete(pending.id);
    await this.settle(pending, outcome === 'timeout' || outcome === 'cancelled');
    return answerOf(pending, outcome, this.timeoutMs);
  }

  /** Takes the call off the inbox; an unanswered question is closed too. */
  private async settle(pending: PendingApproval, unanswered: boolean): Promise<void> {
    await Promise.allSettled([
      this.store.removePendingApproval(pending.id),
      unanswered ? this.store.closeQuestion(pending.sessionId, pending.id) : undefined,
    ]);
  }
}

function answerOf(
  pending: PendingApproval,
  outcome: Answer | 'timeout' | 'cancelled',
  timeoutMs: number,
): ApprovalAnswer {
  if (outcome === 'timeout' || outcome === 'cancelled')
    return unanswered(pending, outcome, timeoutMs);
  const answeredBy = outcome.by === undefined ? {} : { answeredBy: outcome.by };
  return outcome.decision === 'deny'
    ? {
        decision: 'deny',
        reason: `An operator denied the call of '${pending.tool}' in the console.`,
        ...answeredBy,
      }
    : { decision: outcome.decision, ...answeredBy };
}

function unanswered(
  pending: PendingApproval,
  outcome: 'timeout' | 'cancelled',
  timeoutMs: number,
): ApprovalAnswer {
  switch (outcome) {
    case 'timeout':
      return {
        decision: 'deny',
        reason: `Nobody answered in the console within ${Math.round(timeoutMs / 1000)} s, so the call of '${pending.tool}' is denied.`,
      };
    case 'cancelled':
      return { decision: 'deny', reason: `The call of '${pending.tool}' was cancelled.` };
  }
}

/**
 * Creates a replica's approvals inbox: a call that needs approval is listed in the
 * store (every replica's console shows it) and waits for an operator's answer, which
 * the store routes to exactly this replica and this call (`openQuestion` /
 * `routeAnswer`). No answer within `timeoutMs` denies; so does a store that is down.
 *
 * @param store - the gateway's store
 * @param options.timeoutMs - how long a call waits for an answer
 * @returns the inbox
 * @throws nothing
 */
export function createApprovalInbox(
  store: GatewayStore,
  options: { timeoutMs: number },
): ApprovalInbox {
  const state = new InboxState(store, options.timeoutMs);
  return {
    adapter(session) {
      return {
        name: 'console',
        async request(request) {
          try {
            return await state.ask(pendingOf(request, session, options.timeoutMs), request.signal);
          } catch (error) {
            return {
              decision: 'deny',
              reason: `The call of '${request.call.name}' could not be put to the console (${error instanceof Error ? error.message : String(error)}).`,
            };
          }
        },
      };
    },
    async close() {
      for (const resolve of state.waiting.values()) resolve({ decision: 'deny' });
      const unsubscribe = await state.listen().catch(() => undefined);
      await unsubscribe?.();
    },
  };
}

/**
 * Answers a call waiting in the approvals inbox, from any replica: the store hands the
 * decision to exactly the replica and call that asked, and takes it off the inbox.
 *
 * @param store - the gateway's store
 * @param id - the pending approval's id
 * @param decision - the operator's answer
 * @param answeredBy - who answered (e.g. the console operator's principal): the call's
 * audit record names them
 * @returns `delivered`; `unknown` when nothing waits under that id (answered already,
 * timed out, cancelled); `orphaned` when the replica that asked is gone
 * @throws `ToolSearchError` `store_unavailable` when the store is down
 */
export async function answerPendingApproval(
  store: GatewayStore,
  id: string,
  decision: ApprovalDecision,
  answeredBy?: string,
): Promise<AnswerRouting> {
  const pending = (await store.listPendingApprovals()).find((item) => item.id === id);
  if (pending === undefined) return 'unknown';
  const result = answeredBy === undefined ? { decision } : { decision, by: answeredBy };
  const routing = await store.routeAnswer({
    sessionId: pending.sessionId,
    message: { jsonrpc: '2.0', id, result },
  });
  if (routing !== 'delivered') await store.removePendingApproval(id);
  return routing;
}
