import type { ApprovalAdapter, ApprovalAnswer, ApprovalRequest } from '@tool-search/hooks';
import { createPolicyApproval } from '@tool-search/hooks';
import { normalizeApprovalStatus } from './tool-approval.js';

/** Options of {@link createProgramApproval}. */
export interface ProgramApprovalOptions {
  /**
   * The AI SDK's verdict on a program's nested call: a tool's `needsApproval`, or AI SDK
   * 7's `toolApproval`, asked about the real call with the arguments that will run.
   */
  verdict: (request: ApprovalRequest) => Promise<unknown>;
  /** Who is asked, while the program waits, when the verdict is `user-approval`. */
  ask?: ApprovalAdapter;
  /** The dispatcher's own approval, asked about every call (direct, bridge and program). */
  approval?: ApprovalAdapter;
}

// The name a denial by the AI SDK's own policy carries (`denied_by: approval 'toolApproval'`).
const AI_SDK_POLICY = 'toolApproval';

const deny = (reason: string): ApprovalAnswer => ({
  decision: 'deny',
  reason,
  decidedBy: AI_SDK_POLICY,
});

/**
 * The dispatcher's approval step once programs are on: a call from a program first meets
 * the AI SDK's own approval policy (which the AI SDK itself applies to direct calls before
 * they reach the dispatcher): `denied` denies it, `user-approval` asks `ask` while the
 * program waits (each call on its own; `allow-session` counts once here, so that the
 * policy is asked again about the next call) and denies it when there is nobody to ask.
 * Then, and for every other call, the dispatcher's own `approval` decides, or the call is
 * allowed once.
 *
 * @param options - see {@link ProgramApprovalOptions}
 * @returns the approval adapter for the dispatcher
 * @throws nothing; its `request` rejects when `verdict` does (the dispatcher then denies:
 * approvals fail closed)
 */
export function createProgramApproval(options: ProgramApprovalOptions): ApprovalAdapter {
  const { approval, ask } = options;
  const name = approval?.name || 'approval';
  // The policy approval names the adapter that decided, and denies when it fails.
  const asker =
    ask === undefined ? undefined : createPolicyApproval({ require: () => true, ask, name });
  const next = (request: ApprovalRequest) =>
    approval === undefined ? 'allow-once' : approval.request(request);
  return {
    name,
    async request(request) {
      if (request.via !== 'program') return next(request);
      const tool = request.call.name;
      const verdict = normalizeApprovalStatus(await options.verdict(request));
      if (verdict.type === 'denied') {
        return deny(verdict.reason ?? `The call to '${tool}' was denied by its approval policy.`);
      }
      if (verdict.type === 'user-approval') {
        if (asker === undefined) {
          return deny(
            `'${tool}' needs approval (its needsApproval or toolApproval), and a program cannot wait for the AI SDK's approval round trip. Call '${tool}' directly, or give withToolSearch's program option an approval adapter to ask inside programs.`,
          );
        }
        const answer = await asker.request(request);
        if ((typeof answer === 'string' ? answer : answer.decision) === 'deny') return answer;
      }
      return next(request);
    },
  };
}
