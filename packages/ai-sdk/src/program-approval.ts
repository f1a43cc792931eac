import type { ToolCall } from '@tool-search/core';
import type {
  ApprovalAdapter,
  ApprovalRequest,
  DispatchContext,
  Guardrail,
} from '@tool-search/hooks';
import { createPolicyApproval } from '@tool-search/hooks';
import type { AiSdkCallContext } from './call-dispatch.js';
import { normalizeApprovalStatus } from './tool-approval.js';

/** Options of {@link createProgramApproval}. */
export interface ProgramApprovalOptions {
  /**
   * The AI SDK's verdict on a program's nested call: a tool's `needsApproval`, or AI SDK
   * 7's `toolApproval`, asked about the real call with the arguments that will run.
   */
  verdict: (call: ToolCall, context: DispatchContext<AiSdkCallContext>) => Promise<unknown>;
  /** Who is asked, while the program waits, when the verdict is `user-approval`. */
  ask?: ApprovalAdapter;
  /** The dispatcher's own approval, asked about every call (direct, bridge and program). */
  approval?: ApprovalAdapter;
}

/** The two steps the AI SDK's approval policy takes in the dispatcher, for programs' calls. */
export interface ProgramApproval {
  /** Decides on the AI SDK's verdict: `denied` (or nobody to ask) refuses the call. */
  guardrail: Guardrail<AiSdkCallContext>;
  /** Asks `ask` about a call whose verdict was `user-approval`, then the dispatcher's own. */
  approval: ApprovalAdapter;
  /** Forgets what the guardrail noted about a call, once its dispatch settled. */
  settle(callId: string): void;
}

/** The name a refusal by the AI SDK's own policy carries (`denied_by: guardrail 'toolApproval'`). */
export const AI_SDK_POLICY = 'toolApproval';

/**
 * The AI SDK's own approval policy (which the AI SDK applies to direct calls before they
 * reach the dispatcher) as two steps of the dispatcher, for the calls programs make: a
 * guardrail asks the verdict on the final call, refusing it when it is `denied`, or when it
 * is `user-approval` and there is nobody to ask; the approval step then asks `ask` about
 * the calls the verdict sent to the user, while the program waits, each on its own, before
 * the dispatcher's own `approval` (or 'allow-once'). An `allow-session` answer of `ask`
 * counts once, so that the policy decides the next call again. Calls are told apart by
 * their id (the program tool gives each nested call one).
 *
 * @param options - see {@link ProgramApprovalOptions}
 * @returns the guardrail, the approval adapter and `settle`
 * @throws nothing; the guardrail rejects when `verdict` does (the dispatcher then denies:
 * guardrails fail closed)
 */
export function createProgramApproval(options: ProgramApprovalOptions): ProgramApproval {
  const { approval, ask } = options;
  const name = approval?.name || 'approval';
  // The policy approval names the adapter that decided, and denies when it fails.
  const asker =
    ask === undefined ? undefined : createPolicyApproval({ require: () => true, ask, name });
  const toAsk = new Set<string>();
  const next = (request: ApprovalRequest) =>
    approval === undefined ? 'allow-once' : approval.request(request);
  const guardrail: Guardrail<AiSdkCallContext> = {
    name: AI_SDK_POLICY,
    async check(call, context) {
      if (context.via !== 'program' || call.id === undefined) return { allow: true };
      toAsk.delete(call.id);
      const verdict = normalizeApprovalStatus(await options.verdict(call, context));
      if (verdict.type === 'denied') {
        const reason =
          verdict.reason ?? `The call to '${call.name}' was denied by its approval policy.`;
        return { allow: false, reason };
      }
      if (verdict.type !== 'user-approval') return { allow: true };
      if (asker === undefined) {
        return {
          allow: false,
          reason: `'${call.name}' needs approval (its needsApproval or toolApproval), and a program cannot wait for the AI SDK's approval round trip. Call '${call.name}' directly, or give withToolSearch's program option an approval adapter to ask inside programs.`,
        };
      }
      toAsk.add(call.id);
      return { allow: true };
    },
  };
  return {
    guardrail,
    approval: {
      name,
      async request(request) {
        const id = request.call.id;
        if (asker === undefined || id === undefined || !toAsk.delete(id)) return next(request);
        const answer = await asker.request(request);
        if ((typeof answer === 'string' ? answer : answer.decision) === 'deny') return answer;
        return next(request);
      },
    },
    settle: (callId) => void toAsk.delete(callId),
  };
}
