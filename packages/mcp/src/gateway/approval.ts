import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '@tool-search/core/internal';
import {
  type ApprovalAdapter,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalOversize,
  type ApprovalRequest,
  createPolicyApproval,
  renderApprovalQuestion,
  sanitizeTerminalText,
} from '@tool-search/hooks';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../config/defaults.js';
import type { ApprovalConfig, ApprovalRuleConfig } from '../config/schemas.js';

const DECISIONS: readonly ApprovalDecision[] = ['allow-once', 'allow-session', 'deny'];
/**
 * Whether a connected MCP client can be asked through form elicitation.
 *
 * @param server - the session's server, after initialization
 * @returns true when the client declared the `elicitation` capability with form mode
 * (an empty `elicitation: {}` means form)
 */
export function clientSupportsElicitation(server: Pick<Server, 'getClientCapabilities'>): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation;
  if (elicitation === undefined) return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/**
 * An approval adapter that asks the person at the MCP client, through MCP form
 * elicitation (`elicitation/create`): allow once, allow for this session, or deny.
 * Declining, cancelling, an unknown answer, a failed request and no answer in time
 * all deny. The question shows the call as `renderApprovalQuestion` (from
 * `@tool-search/hooks`) renders it: the whole arguments up to `maxArgumentChars`, with
 * controls, bidi controls and invisible characters escaped and runs of whitespace shown
 * by their length. Longer arguments are denied without asking (or, with `oversize:
 * 'ask'`, asked about with each cut field named and how much of it is cut).
 *
 * @param server - the session's server (its client must support elicitation)
 * @param options.timeoutMs - how long to wait for the person @defaultValue 120000
 * @param options.maxArgumentChars - the most characters of arguments a question shows
 * @defaultValue 4000
 * @param options.oversize - what happens to longer arguments @defaultValue `'deny'`
 * @param options.relatedRequestId - the id of the client's request being served
 * (`tools/call`), read from the approval request (its `context` carries what the
 * dispatcher's caller passed), when known: the question then goes on that request's own stream
 * (Streamable HTTP), so a client without a standing GET stream, or one whose GET stream
 * is held by another replica, still gets it
 * @returns the adapter
 * @throws `ToolSearchError` `invalid_argument` when `maxArgumentChars` is not a positive
 * integer or `oversize` is not `'deny'` or `'ask'`; its `request` never rejects
 */
export function createElicitationApproval(
  server: Pick<Server, 'elicitInput'>,
  options: {
    timeoutMs?: number;
    relatedRequestId?: (request: ApprovalRequest) => RequestId | undefined;
    maxArgumentChars?: number;
    oversize?: ApprovalOversize;
  } = {},
): ApprovalAdapter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const questionOptions = {
    ...(options.maxArgumentChars === undefined
      ? {}
      : { maxArgumentChars: options.maxArgumentChars }),
    ...(options.oversize === undefined ? {} : { oversize: options.oversize }),
  };
  // Fails here, when the adapter is made, rather than on every request.
  renderApprovalQuestion({ name: '', arguments: {} }, questionOptions);
  return {
    name: 'elicitation',
    async request(approvalRequest: ApprovalRequest): Promise<ApprovalAnswer> {
      const { call, tool, signal } = approvalRequest;
      const question = renderApprovalQuestion(call, questionOptions);
      if (question.denial) return question.denial;
      const where = tool?.toolset
        ? ` (${sanitizeTerminalText(tool.toolset, { multiline: false })})`
        : '';
      const notice = question.notice === undefined ? '' : ` ${question.notice}`;
      const related = options.relatedRequestId?.(approvalRequest);
      const hints = tool?.annotations?.destructiveHint === true ? ' It may be destructive.' : '';
      try {
        const result = await server.elicitInput(
          {
            mode: 'form',
            message: `Allow the call of '${question.tool}'${where} with ${question.arguments}?${hints}${notice}`,
            requestedSchema: {
              type: 'object',
              properties: {
                decision: {
                  type: 'string',
                  title: 'Decision',
                  enum: [...DECISIONS],
                  enumNames: ['Allow once', 'Allow for this session', 'Deny'],
                },
              },
              required: ['decision'],
            },
          },
          {
            signal,
            timeout: timeoutMs,
            ...(related === undefined ? {} : { relatedRequestId: related }),
          },
        );
        if (result.action !== 'accept') {
          return {
            decision: 'deny',
            reason: `The user ${result.action === 'decline' ? 'declined' : 'cancelled'} the call of '${call.name}'.`,
          };
        }
        const decision = result.content?.['decision'];
        if (typeof decision === 'string' && (DECISIONS as readonly string[]).includes(decision)) {
          return decision === 'deny'
            ? { decision, reason: `The user denied the call of '${call.name}'.` }
            : { decision: decision as ApprovalDecision };
        }
        return { decision: 'deny', reason: `No valid answer about the call of '${call.name}'.` };
      } catch (error) {
        return {
          decision: 'deny',
          reason: `Nobody approved the call of '${call.name}' (${describeError(error)}).`,
        };
      }
    },
  };
}

function isEmptyRule(rule: ApprovalRuleConfig): boolean {
  return (
    rule.tools.length === 0 &&
    rule.toolsets.length === 0 &&
    Object.keys(rule.annotations).length === 0
  );
}

/**
 * Builds the approval step of one gateway session from the config: the rules
 * decide which calls must be asked about, and `ask` is who is asked (the client
 * through elicitation, an adapter of the embedder, or nobody). When nobody can be
 * asked, `fallback` answers. Returns `undefined` when no call ever needs approval.
 *
 * @param config - the approval section of the gateway config
 * @param ask - who is asked, per call; `undefined` means the client cannot be asked
 * @returns the adapter for `createDispatcher`, or `undefined`
 * @throws nothing
 */
export function createGatewayApproval(
  config: ApprovalConfig,
  ask: () => ApprovalAdapter | undefined,
): ApprovalAdapter | undefined {
  if (isEmptyRule(config.require) && config.otherwise === 'allow') return undefined;
  const asker: ApprovalAdapter = {
    name: 'approval',
    async request(request) {
      const adapter = ask();
      if (adapter !== undefined) {
        // The adapter that decided is named in a denial, not this wrapper.
        const answer = await adapter.request(request);
        const decidedBy = adapter.name ?? 'approval';
        if (typeof answer === 'string') return { decision: answer, decidedBy };
        if (typeof answer === 'object' && answer !== null && answer.decidedBy === undefined) {
          return { ...answer, decidedBy };
        }
        return answer;
      }
      if (config.fallback === 'allow') return 'allow-once';
      return {
        decision: 'deny',
        reason: `The call of '${request.call.name}' needs approval, and this client cannot be asked (it does not support MCP elicitation), so the gateway's policy denies it.`,
      };
    },
  };
  return createPolicyApproval({
    require: config.require,
    autoApprove: config.autoApprove,
    otherwise: config.otherwise,
    ask: asker,
    name: 'approval',
  });
}
