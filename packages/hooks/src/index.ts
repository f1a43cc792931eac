/**
 * The dispatch pipeline of a tool-calling runtime: every call, direct or unwrapped from
 * `tool_call`, passes guardrails, `beforeCall` hooks, an approval, the execution and
 * `afterCall` hooks, in that order, and fails closed.
 *
 * The entry points:
 * - {@link createDispatcher}: the pipeline, answering a {@link DispatchResult}.
 * - {@link createToolPolicyGuardrail}, {@link createSchemaGuardrail} and
 *   {@link createArgumentSizeGuardrail}: guardrails.
 * - {@link createPolicyApproval}, {@link createCallbackApproval} and
 *   {@link createTerminalApproval}: approvals, with {@link createSessionApprovalStore}
 *   for answers that hold for a session, and {@link renderApprovalQuestion}, the one
 *   rendering of a call that every approval shows a person.
 * - {@link createAuditHook} and {@link createResultTruncationHook}: hooks.
 * - {@link createToolRuleMatcher}: match a rule against a tool's exposed name, upstream
 *   name and `server/name`, as the policies do.
 *
 * A conformance suite for your own guardrails and approvals is at
 * `@tool-search/hooks/testing`.
 *
 * @example
 * ```ts
 * import { createDispatcher, createToolPolicyGuardrail } from '@tool-search/hooks';
 *
 * const dispatch = createDispatcher({
 *   execute: (call) => runTool(call.name, call.arguments),
 *   guardrails: [createToolPolicyGuardrail({ deny: ['delete_*'] })],
 * });
 * const result = await dispatch({ name: 'create_issue', arguments: { title: 'Bug' } });
 * ```
 *
 * @packageDocumentation
 */
export type { Promisable, ToolCall } from '@tool-search/core';
export type {
  ApprovalOversize,
  ApprovalQuestion,
  ApprovalQuestionOptions,
} from './approval-question.js';
export { DEFAULT_APPROVAL_ARGUMENT_CHARS, renderApprovalQuestion } from './approval-question.js';
export type { ArgumentCut } from './approval-text.js';
export type { ArgumentSizeGuardrailOptions } from './argument-size-guardrail.js';
export { createArgumentSizeGuardrail } from './argument-size-guardrail.js';
export type {
  AuditHook,
  AuditHookOptions,
  AuditRecord,
  AuditRefusal,
  AuditSink,
} from './audit-hook.js';
export { createAuditHook } from './audit-hook.js';
export type { ApprovalCallbackAnswer, CallbackApprovalOptions } from './callback-approval.js';
export { createCallbackApproval } from './callback-approval.js';
export type { DispatcherOptions } from './dispatcher.js';
export { createDispatcher } from './dispatcher.js';
export { createGlobMatcher } from './glob.js';
export type {
  ApprovalHint,
  ApprovalRule,
  ApprovalRuleSpec,
  PolicyApprovalOptions,
} from './policy-approval.js';
export { createPolicyApproval } from './policy-approval.js';
export type { ResultTruncationHookOptions } from './result-truncation-hook.js';
export { createResultTruncationHook } from './result-truncation-hook.js';
export type { SchemaGuardrailOptions, ToolLookup } from './schema-guardrail.js';
export { createSchemaGuardrail } from './schema-guardrail.js';
export type { SessionApprovalStore, SessionApprovalStoreOptions } from './session-approvals.js';
export { createSessionApprovalStore } from './session-approvals.js';
export type {
  TerminalApprovalOptions,
  TerminalInput,
  TerminalOutput,
} from './terminal-approval.js';
export { createTerminalApproval } from './terminal-approval.js';
export type { SanitizeTerminalTextOptions } from './terminal-text.js';
export { sanitizeTerminalText } from './terminal-text.js';
export { createToolRuleMatcher } from './tool-identity.js';
export type { ToolPatterns, ToolPolicyGuardrailOptions } from './tool-policy-guardrail.js';
export { createToolPolicyGuardrail } from './tool-policy-guardrail.js';
export type {
  AfterCallOutcome,
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOutcome,
  ApprovalRequest,
  ApprovalTiming,
  BeforeCallOutcome,
  CallRoute,
  DeniedBy,
  DispatchContext,
  DispatchError,
  Dispatcher,
  DispatchResult,
  DispatchSettled,
  DispatchTimeouts,
  Guardrail,
  GuardrailVerdict,
  ToolCallContext,
  ToolCallHook,
} from './types.js';
