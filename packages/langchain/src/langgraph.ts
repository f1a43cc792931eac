/**
 * LangGraph's side of `@tool-search/langchain`: {@link createInterruptApproval}, an
 * approval that asks a person through `interrupt()` and resumes with
 * `new Command({ resume })`. It needs `@langchain/langgraph`.
 *
 * @packageDocumentation
 */
export type {
  InterruptApprovalOptions,
  ToolApprovalInterrupt,
  ToolApprovalResume,
} from './interrupt-approval.js';
export { createInterruptApproval } from './interrupt-approval.js';
