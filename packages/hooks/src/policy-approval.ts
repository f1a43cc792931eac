import type { ToolAnnotations } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { observeWait } from './approval-telemetry.js';
import { normalizeApproval } from './dispatch-input.js';
import { createGlobMatcher } from './glob.js';
import { createToolRuleMatcher, originOfCall } from './tool-identity.js';
import type {
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
} from './types.js';

/** The MCP hints an approval rule can test. */
export type ApprovalHint = 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';

/**
 * Which calls a rule covers. The criteria are alternatives: a call matches when its
 * tool name matches one of `tools`, or its toolset one of `toolsets`, or one of the
 * listed `annotations` has the listed value. Patterns are globs (`*`, `?`); a tool
 * pattern matches the exposed name, the upstream name (`tool.origin.name`) and, when it
 * holds a `/`, `server/name` (see {@link createToolRuleMatcher}), so that a rename on a
 * name collision cannot move a tool out from under a rule.
 *
 * Annotations are read with the MCP defaults, so that a tool that says nothing is
 * treated as the cautious reading demands: `readOnlyHint` false, `destructiveHint`
 * true (unless read-only), `idempotentHint` false, `openWorldHint` true. An unknown
 * tool (no definition in the request) has no annotations and reads the same way.
 */
export interface ApprovalRuleSpec {
  tools?: readonly string[];
  toolsets?: readonly string[];
  annotations?: Partial<Record<ApprovalHint, boolean>>;
}

/** A rule: a {@link ApprovalRuleSpec} or any predicate over the request. */
export type ApprovalRule = ApprovalRuleSpec | ((request: ApprovalRequest) => boolean);

/** Options of {@link createPolicyApproval}. */
export interface PolicyApprovalOptions {
  /** Calls that must be asked about. Wins over `autoApprove`. */
  require?: ApprovalRule;
  /** Calls approved without asking ('allow-once'). */
  autoApprove?: ApprovalRule;
  /** Who is asked, e.g. {@link createTerminalApproval}. Without it, a call that must be asked is denied. */
  ask?: ApprovalAdapter;
  /**
   * What happens to a call that neither rule matches: 'ask', 'allow' (once) or 'deny'.
   * @defaultValue `'ask'`
   */
  otherwise?: 'ask' | 'allow' | 'deny';
  /** @defaultValue `'policy'` */
  name?: string;
}

/**
 * Asks the adapter a policy delegates to, and names it in the answer, so that a denial
 * reports the adapter that denied rather than the policy. Its failures deny here, named
 * after it, for the same reason (approvals fail closed either way).
 */
async function delegate(
  adapter: ApprovalAdapter,
  request: ApprovalRequest,
): Promise<ApprovalDecision | ApprovalAnswer> {
  const name = adapter.name || 'approval';
  let value: unknown;
  try {
    value = await observeWait(name, request, async () => adapter.request(request));
  } catch (error) {
    if (request.signal.aborted) throw error;
    return {
      decision: 'deny',
      reason: `Approval '${name}' failed (${describeError(error)}), so the call to '${request.call.name}' is denied (approvals fail closed).`,
      decidedBy: name,
    };
  }
  const answer = normalizeApproval(value);
  if (answer === undefined) {
    return {
      decision: 'deny',
      reason: `Approval '${name}' answered something other than 'allow-once', 'allow-session' or 'deny', so the call to '${request.call.name}' is denied (approvals fail closed).`,
      decidedBy: name,
    };
  }
  if (answer.decision !== 'deny') return value as ApprovalDecision | ApprovalAnswer;
  return { ...answer, decidedBy: answer.decidedBy ?? name };
}

function effectiveHints(annotations: ToolAnnotations | undefined): Record<ApprovalHint, boolean> {
  const readOnly = annotations?.readOnlyHint === true;
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && annotations?.destructiveHint !== false,
    idempotentHint: annotations?.idempotentHint === true,
    openWorldHint: annotations?.openWorldHint !== false,
  };
}

function compileRule(rule: ApprovalRule | undefined): (request: ApprovalRequest) => boolean {
  if (rule === undefined) return () => false;
  if (typeof rule === 'function') return rule;
  const tools = createToolRuleMatcher(rule.tools ?? []);
  const toolsets = createGlobMatcher(rule.toolsets ?? []);
  const hints = Object.entries(rule.annotations ?? {}) as [ApprovalHint, boolean][];
  return (request) => {
    if (tools(request.call.name, originOfCall(request.call.name, request.tool))) return true;
    const tool = request.tool?.name === request.call.name ? request.tool : undefined;
    if (tool?.toolset !== undefined && toolsets(tool.toolset)) return true;
    if (hints.length === 0) return false;
    const effective = effectiveHints(tool?.annotations);
    return hints.some(([hint, value]) => effective[hint] === value);
  };
}

/**
 * Creates an approval adapter that decides by rules and asks another adapter only
 * when it must: calls that `require` matches are asked about, calls that
 * `autoApprove` matches are allowed once without asking, and the rest follow
 * `otherwise`. `require` wins when both match, so a tool cannot talk its way out of a
 * prompt with contradictory annotations. Annotations come from the tool's server and
 * are hints, not guarantees: trust them only as far as you trust the server.
 *
 * @param options.require - calls that must be asked about
 * @param options.autoApprove - calls allowed without asking
 * @param options.ask - who is asked
 * @param options.otherwise - what happens to the rest
 * @param options.name - the adapter's name in denials
 * @returns an {@link ApprovalAdapter}
 * @throws `ToolSearchError` `invalid_argument` when a pattern is not a string
 *
 * @example
 * ```ts
 * const approval = createPolicyApproval({
 *   require: { annotations: { destructiveHint: true }, tools: ['shell_*'] },
 *   autoApprove: { annotations: { readOnlyHint: true } },
 *   ask: createTerminalApproval(),
 * });
 * const dispatch = createDispatcher({ execute, approval, resolveTool });
 * ```
 */
export function createPolicyApproval(options: PolicyApprovalOptions): ApprovalAdapter {
  const requires = compileRule(options.require);
  const autoApproves = compileRule(options.autoApprove);
  const otherwise = options.otherwise ?? 'ask';
  const name = options.name ?? 'policy';
  const ask = async (request: ApprovalRequest): Promise<ApprovalDecision | ApprovalAnswer> => {
    if (!options.ask) {
      return {
        decision: 'deny',
        reason: `The call to '${request.call.name}' needs approval, and no one is configured to approve it.`,
      };
    }
    return delegate(options.ask, request);
  };
  return {
    name,
    async request(request) {
      if (requires(request)) return ask(request);
      if (autoApproves(request)) return 'allow-once';
      if (otherwise === 'allow') return 'allow-once';
      if (otherwise === 'deny') {
        return {
          decision: 'deny',
          reason: `The call to '${request.call.name}' is not approved by policy.`,
        };
      }
      return ask(request);
    },
  };
}
