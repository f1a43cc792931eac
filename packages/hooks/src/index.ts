export type { Promisable, ToolCall } from '@tool-search/core';
export type { ArgumentSizeGuardrailOptions } from './argument-size-guardrail.js';
export { createArgumentSizeGuardrail } from './argument-size-guardrail.js';
export type { AuditHookOptions, AuditRecord, AuditSink } from './audit-hook.js';
export { createAuditHook } from './audit-hook.js';
export type { ApprovalCallbackAnswer, CallbackApprovalOptions } from './callback-approval.js';
export { createCallbackApproval } from './callback-approval.js';
export type { DispatcherOptions } from './dispatcher.js';
export { createDispatcher } from './dispatcher.js';
export { createGlobMatcher, globToRegExp } from './glob.js';
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
export { createToolRuleMatcher, originOfCall, toolIdentityKey } from './tool-identity.js';
export type { ToolPatterns, ToolPolicyGuardrailOptions } from './tool-policy-guardrail.js';
export { createToolPolicyGuardrail } from './tool-policy-guardrail.js';
export type {
  AfterCallOutcome,
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOutcome,
  ApprovalRequest,
  BeforeCallOutcome,
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
