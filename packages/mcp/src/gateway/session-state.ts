import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Implementation, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type Assembly, assembleTools, type BridgeTelemetry } from '@tool-search/bridge';
import {
  type McpTool,
  type ToolDefinition,
  type ToolSearchConfig,
  toMcpTool,
} from '@tool-search/core';
import type { AuditHook, Dispatcher, Guardrail } from '@tool-search/hooks';
import { type SessionScope, scopeTools, type ToolsetRegistry } from '@tool-search/toolsets';
import type { ApprovalConfig } from '../config/schemas.js';
import type { ApprovalInbox } from '../console/approval-inbox.js';
import type { GatewayStore } from '../store/types.js';
import { capToolDescription } from '../upstream/limits.js';
import type { CallDrain } from './call-drain.js';
import type { GatewayActivity, GatewayServerOptions } from './types.js';

/** What a new session shares with its gateway: the checked config and the gateway's state. */
export interface GatewaySessionContext {
  /** The gateway's options (tool source, hooks, ranker, approval adapter...). */
  options: GatewayServerOptions;
  /** The toolset registry of the config. */
  registry: ToolsetRegistry;
  /** Core's tool search config, when the config has one. */
  toolSearch: ToolSearchConfig | undefined;
  /** The approval policy. */
  approvalConfig: ApprovalConfig;
  /** The guardrails of every session (configured ones, then the options'). */
  guardrails: readonly Guardrail[];
  /**
   * The size limit of a call's arguments (`guardrails.maxArgumentBytes`), when one is
   * configured: the bridge refuses larger arguments before it checks their schema.
   */
  maxArgumentBytes?: number;
  /** How each session's MCP server introduces itself. */
  serverInfo: Implementation;
  /** Descriptions longer than this are cut. */
  maxDescriptionChars: number;
  /** Settles when the upstreams are ready (or the wait is over). */
  upstreamsSettled: () => Promise<void>;
  /** Every session's calls in flight. */
  drain: CallDrain;
  /** Sends a line to the activity feed (never throws). */
  emitActivity: (activity: GatewayActivity) => void;
  /** Told when a session ends, by id. */
  onClosed: (id: string) => void;
  /** The gateway's store: a shared one keeps 'allow-session' answers for every replica. */
  store: GatewayStore;
  /** The hook that writes every call to the store's audit trail. */
  auditHook: AuditHook;
  /** The console's approvals inbox, when `approval.via` names the console. */
  inbox?: ApprovalInbox;
}

/** One session's state: what it shares with the gateway, its server, and its current list. */
export interface SessionState {
  readonly context: GatewaySessionContext;
  readonly id: string;
  readonly profileName: string | undefined;
  readonly scope: SessionScope;
  readonly server: Server;
  readonly telemetry: BridgeTelemetry;
  /** The client request a call serves: an approval question goes on its stream. */
  readonly servedRequest: AsyncLocalStorage<RequestId>;
  readonly batchDeadlineMs: number;
  /** The session's pipeline; set once, right after the state. */
  dispatcher: Dispatcher;
  scoped: Map<string, ToolDefinition>;
  assembly: Assembly | undefined;
  listed: McpTool[];
  listedKey: string;
  initialized: boolean;
  closed: boolean;
}

/** Re-scopes and re-assembles the pool's tools; true when the listed tools changed. */
export function reassemble(state: SessionState): boolean {
  const { options, registry, toolSearch, maxArgumentBytes, maxDescriptionChars } = state.context;
  // The pool cuts descriptions already; a tool source of another kind may not.
  const shown = options.pool.tools().map((tool) => capToolDescription(tool, maxDescriptionChars));
  const tools = scopeTools(shown, state.scope, registry);
  state.scoped = new Map(tools.map((tool) => [tool.name, tool]));
  state.assembly = assembleTools({
    tools,
    ...(toolSearch === undefined ? {} : { config: toolSearch }),
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
    ...(options.stableDescriptions === undefined
      ? {}
      : { stableDescriptions: options.stableDescriptions }),
    ...(options.strictBridge === undefined ? {} : { strict: options.strictBridge }),
    ...(maxArgumentBytes === undefined ? {} : { maxArgumentBytes }),
    ...(options.onSkippedKeyword === undefined
      ? {}
      : { onSkippedKeyword: options.onSkippedKeyword }),
    describeToolset: (name) => registry.get(name)?.description,
    ...(state.assembly === undefined ? {} : { previous: state.assembly }),
    telemetry: state.telemetry,
  });
  const next = state.assembly.tools.map(toMcpTool);
  const key = JSON.stringify(next);
  const changed = key !== state.listedKey;
  state.listed = next;
  state.listedKey = key;
  return changed;
}
