import type { ApprovalAdapter, ApprovalAnswer, ApprovalDecision } from '@tool-search/hooks';
import type { GatewayStore } from './types.js';

function decisionOf(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer;
  if (typeof answer === 'object' && answer !== null && 'decision' in answer) {
    return String((answer as { decision: unknown }).decision);
  }
  return undefined;
}

/**
 * Keeps a session's 'allow-session' answers in the shared store, so that every replica
 * that serves the session remembers them. A tool allowed for the session on any
 * replica is allowed at once; an answer 'allow-session' is stored before the call runs.
 * The key is the tool's identity (`server/name`, else its name), as the dispatcher's.
 * A store that is down fails closed: the lookup throws (the dispatcher denies, naming
 * the error); an answer that cannot be stored allows this one call only.
 *
 * @param adapter - who is asked (the client through elicitation, an embedder's adapter)
 * @param store - the gateway's store
 * @param sessionId - the session
 * @returns the adapter
 * @throws nothing; its `request` rejects `store_unavailable` when the store is down
 */
export function withStoredApprovals(
  adapter: ApprovalAdapter,
  store: GatewayStore,
  sessionId: string,
): ApprovalAdapter {
  return {
    name: adapter.name,
    async request(request): Promise<ApprovalDecision | ApprovalAnswer> {
      const { call, tool } = request;
      const origin = tool !== undefined && tool.name === call.name ? tool.origin : undefined;
      const key = origin === undefined ? call.name : `${origin.server}/${origin.name}`;
      if (await store.hasApproval(sessionId, key)) return { decision: 'allow-session' };
      const answer = await adapter.request(request);
      if (decisionOf(answer) !== 'allow-session') return answer;
      try {
        await store.rememberApproval(sessionId, key);
        return answer;
      } catch {
        // Not remembered anywhere: this call only, so that no replica is wider than another.
        return { decision: 'allow-once' };
      }
    },
  };
}
