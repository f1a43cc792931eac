import { randomUUID } from 'node:crypto';
import { ToolSearchError } from '@tool-search/core';
import {
  type ApprovalAdapter,
  type ApprovalAnswer,
  type ApprovalRequest,
  renderApprovalQuestion,
} from '@tool-search/hooks';
import type { GatewayStore } from '../store/types.js';
import {
  argumentsHash,
  readSignedState,
  type SignedStateEnvelope,
  signState,
} from './signed-state.js';

export { argumentsHash } from './signed-state.js';

/** The key of the approval question in an `input_required` result's `inputRequests`. */
export const APPROVAL_INPUT_KEY = 'approval';

/** How long "allow for this credential" holds when a person chooses it: one hour. */
export const DEFAULT_CREDENTIAL_ALLOW_MS = 60 * 60 * 1000;

/** What a signed approval state holds: who, which call, until when, and its one-time nonce. */
interface ApprovalState extends SignedStateEnvelope {
  /** The final tool name the approval saw. */
  t: string;
  /** The hash of the final arguments the approval saw. */
  h: string;
  /** The nonce: the state is redeemed once. */
  n: string;
}

/** The question a stateless call returns instead of running: an elicitation and its state. */
export interface ApprovalQuestion {
  message: string;
  requestedSchema: Record<string, unknown>;
  requestState: string;
}

function refuse(message: string): never {
  throw new ToolSearchError('invalid_argument', message, { data: { field: 'requestState' } });
}

/**
 * Reads an approval's `requestState` back: its signature, version, expiry and principal checked.
 *
 * @throws {@link ToolSearchError} `invalid_argument` (`data.field`: `requestState`) when it
 * fails a check (forged, expired, another principal's)
 */
function verify(key: Uint8Array, raw: string, principal: string, now: number): ApprovalState {
  return readSignedState<ApprovalState>(key, 'approval', raw, {
    principal,
    now,
    advice: 'call the tool again to be asked',
  });
}

/** One call's approval channel: how the stateless approval answers for it. */
type Channel =
  | {
      mode: 'ask';
      pending?: { name: string; arguments: Record<string, unknown>; question: string };
    }
  | { mode: 'answer'; state: ApprovalState; decision: 'allow-once' | 'allow-session' | 'deny' }
  /** The answer has decided its one call: any other call of the request is refused. */
  | { mode: 'used' };

/** What the approval of one credential's stateless calls needs. */
export interface StatelessApprovalOptions {
  principal: string;
  store: GatewayStore;
  /** The HMAC key of `requestState` (the operator's token secret, or random per gateway). */
  key: Uint8Array;
  /** How long a person has to answer: the state's lifetime. */
  timeoutMs: number;
  /** How long "allow for this credential" holds. */
  allowForMs: number;
  /** Who is asked when the client cannot be (the console's inbox, the options' adapter). */
  fallback: () => ApprovalAdapter | undefined;
  /** What the policy answers when nobody can be asked (`approval.fallback`). */
  policyFallback: 'allow' | 'deny';
  /** How a question renders the call. */
  question: { maxArgumentChars?: number };
}

/**
 * The approval of one credential's stateless calls: a client that declared elicitation is
 * asked by `input_required` (the call returns the question with a signed, expiring,
 * one-time `requestState` bound to the principal, the tool and the hash of its final
 * arguments; the retry with the answer runs exactly that call, once); any other is
 * answered as a session's client without elicitation is (the fallback). "Allow for this
 * credential" is a grant in the store for a stated time, which every replica honours.
 *
 * @param options - the principal, store, key and timings
 * @returns the adapter (for `createGatewayApproval`) and the per-call channels
 * @throws nothing
 */
export function createStatelessApproval(options: StatelessApprovalOptions) {
  const channels = new Map<string, Channel>();
  const { store, principal } = options;
  const grantKey = (request: ApprovalRequest) => {
    const { call, tool } = request;
    const origin = tool !== undefined && tool.name === call.name ? tool.origin : undefined;
    return `${principal}\u0000${origin === undefined ? call.name : `${origin.server}/${origin.name}`}`;
  };
  const grant = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    if (store.putGrant === undefined) return { decision: 'allow-once' };
    try {
      await store.putGrant(grantKey(request), options.allowForMs);
    } catch {
      // Not remembered anywhere: this call only.
    }
    // Never 'allow-session' to the dispatcher: it would remember it in this process alone.
    return { decision: 'allow-once' };
  };
  const adapter: ApprovalAdapter = {
    name: 'approval',
    async request(request) {
      if (store.hasGrant !== undefined && (await store.hasGrant(grantKey(request)))) {
        return { decision: 'allow-once' };
      }
      const id = request.context?.['requestId'];
      const channel = typeof id === 'string' ? channels.get(id) : undefined;
      if (channel?.mode === 'used') {
        return {
          decision: 'deny',
          reason: `The person's answer decided one call, and it has been made: call '${request.call.name}' again to be asked.`,
        };
      }
      if (channel?.mode === 'answer') {
        const { state, decision } = channel;
        if (state.t !== request.call.name || state.h !== argumentsHash(request.call.arguments)) {
          return {
            decision: 'deny',
            reason: `The call of '${request.call.name}' is not the one that was approved (its tool or final arguments changed): call it again to be asked.`,
          };
        }
        // One answer, one call: a batch or program repeating the approved call gets no more.
        channels.set(id as string, { mode: 'used' });
        if (decision === 'deny') {
          return {
            decision: 'deny',
            reason: `The user denied the call of '${request.call.name}'.`,
          };
        }
        return decision === 'allow-session' ? grant(request) : { decision: 'allow-once' };
      }
      if (channel?.mode === 'ask' && store.claimOnce !== undefined) {
        const rendered = renderApprovalQuestion(request.call, options.question);
        if (rendered.denial) return rendered.denial;
        channel.pending = {
          name: request.call.name,
          arguments: request.call.arguments,
          question: `Allow the call of '${rendered.tool}' with ${rendered.arguments}?${rendered.notice === undefined ? '' : ` ${rendered.notice}`}`,
        };
        return {
          decision: 'deny',
          reason: `The call of '${request.call.name}' waits for the user's approval.`,
        };
      }
      const fallback = options.fallback();
      if (fallback === undefined) {
        if (options.policyFallback === 'allow') return { decision: 'allow-once' };
        return {
          decision: 'deny',
          reason: `The call of '${request.call.name}' needs approval, and this client cannot be asked (it did not declare MCP elicitation), so the gateway's policy denies it.`,
        };
      }
      const given = await fallback.request(request);
      // The adapter that decided is named in a denial, not this wrapper.
      const decidedBy = fallback.name ?? 'approval';
      const answer: ApprovalAnswer =
        typeof given === 'string'
          ? { decision: given, decidedBy }
          : { ...given, decidedBy: given.decidedBy ?? decidedBy };
      return answer.decision === 'allow-session'
        ? { ...(await grant(request)), decidedBy }
        : answer;
    },
  };
  return {
    adapter,
    /**
     * Opens a call's channel: `ask` when its client declared elicitation, `answer` when it
     * retries with a verified state and the person's answer.
     *
     * @throws {@link ToolSearchError} `invalid_argument` for a forged, expired, replayed or
     * another principal's `requestState`
     */
    async open(call: {
      elicitation: boolean;
      requestState?: string;
      answer?: unknown;
      /** A relay's state says this call (tool, final-arguments hash) was approved already. */
      approved?: { t: string; h: string } | undefined;
    }): Promise<{
      id: string;
      /** This request's answer allows the call (a retry with the person's yes). */
      allows: boolean;
      close(): void;
      question(): ApprovalQuestion | undefined;
    }> {
      const id = `stateless-call:${randomUUID()}`;
      const now = Date.now();
      if (call.approved !== undefined) {
        const { t, h } = call.approved;
        const state: ApprovalState = { v: 1, p: principal, e: now, t, h, n: '' };
        channels.set(id, { mode: 'answer', state, decision: 'allow-once' });
      } else if (call.requestState !== undefined) {
        const state = verify(options.key, call.requestState, principal, now);
        if (
          store.claimOnce === undefined ||
          !(await store.claimOnce(`approval:${state.n}`, state.e - now + 1000))
        ) {
          refuse('The requestState was already used: call the tool again to be asked.');
        }
        channels.set(id, { mode: 'answer', state, decision: decisionOf(call.answer) });
      } else if (call.elicitation) {
        channels.set(id, { mode: 'ask' });
      }
      const opened = channels.get(id);
      return {
        id,
        allows: opened?.mode === 'answer' && opened.decision !== 'deny',
        close: () => channels.delete(id),
        question() {
          const channel = channels.get(id);
          if (channel?.mode !== 'ask' || channel.pending === undefined) return undefined;
          const { pending } = channel;
          const state: ApprovalState = {
            v: 1,
            p: principal,
            t: pending.name,
            h: argumentsHash(pending.arguments),
            e: Date.now() + options.timeoutMs,
            n: randomUUID(),
          };
          return {
            message: pending.question,
            requestedSchema: questionSchema(options.allowForMs),
            requestState: signState(options.key, 'approval', state),
          };
        },
      };
    },
  };
}

function questionSchema(allowForMs: number): Record<string, unknown> {
  const minutes = Math.max(1, Math.round(allowForMs / 60_000));
  return {
    type: 'object',
    properties: {
      decision: {
        type: 'string',
        title: 'Decision',
        enum: ['allow-once', 'allow-session', 'deny'],
        enumNames: ['Allow once', `Allow for this credential for ${minutes} minutes`, 'Deny'],
      },
    },
    required: ['decision'],
  };
}

/** The person's decision from an elicitation answer; anything else denies. */
function decisionOf(answer: unknown): 'allow-once' | 'allow-session' | 'deny' {
  if (typeof answer !== 'object' || answer === null) return 'deny';
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action !== 'accept' || typeof content !== 'object' || content === null) return 'deny';
  const decision = (content as { decision?: unknown }).decision;
  return decision === 'allow-once' || decision === 'allow-session' ? decision : 'deny';
}
