import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from '@tool-search/core';
import type { RelayQuestion } from './modern-relay.js';
import type { ApprovalQuestion } from './stateless-approval.js';

/** What a stateless `tools/list` answers: the tools and whether they depend on the caller. */
export interface StatelessToolList {
  /** The bridge tools and the tools the profile pins or loads eagerly, in a stable order. */
  tools: McpTool[];
  /** `private` when the list depends on the caller's profile (the config has profiles). */
  cacheScope: 'public' | 'private';
}

/** What a stateless call carries besides its params. */
export interface StatelessCallContext {
  /** The client's request id (approval questions and audit name it). */
  requestId: string | number;
  /** Aborts when the client goes away: the call is cancelled upstream. */
  signal: AbortSignal;
  /** Sends a notification on the call's own response stream (progress). */
  notify?: (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;
  /** Whether the request declared the `elicitation` capability (approvals are then asked by `input_required`). */
  elicitation?: boolean;
  /** The `requestState` a retry echoes. */
  requestState?: string;
  /** The answers a retry carries (`inputResponses`). */
  inputResponses?: Record<string, unknown>;
  /** The client capabilities the request declared (`_meta`): what an upstream may ask it. */
  capabilities?: Record<string, unknown>;
  /**
   * The request's log level (`io.modelcontextprotocol/logLevel`): what the upstream logs
   * during the call at or above it goes to `notify`; nothing without one.
   */
  logLevel?: string;
}

/** What a stateless call answers: its result, or a question for a person first. */
export type StatelessCallOutcome =
  | { result: CallToolResult }
  | {
      /** The approval question (`inputRequests[key]`, an elicitation) and the signed state. */
      question: ApprovalQuestion;
      /** The `inputRequests` key of the question. */
      key: string;
    }
  | {
      /** An upstream's questions passed on (keys kept or prefixed) and the gateway's signed state. */
      input: RelayQuestion;
    }
  | {
      /** The upstream needs client capabilities the request did not declare (`-32021`). */
      missingCapabilities: Record<string, unknown>;
      message: string;
    };

/** The params of a stateless `tools/call`. */
export interface StatelessCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
