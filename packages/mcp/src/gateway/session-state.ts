import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { type Assembly, assembleTools, type BridgeTelemetry } from '@tool-search/bridge';
import type { ProgramTool } from '@tool-search/code';
import {
  type LearningSession,
  type McpTool,
  type SearchLearner,
  type ToolDefinition,
  type ToolSearchConfig,
  toMcpTool,
} from '@tool-search/core';
import type { AuditHook, Dispatcher, Guardrail } from '@tool-search/hooks';
import { type SessionScope, scopeTools, type ToolsetRegistry } from '@tool-search/toolsets';
import type { ApprovalConfig, GatewayProfile, GuardrailsConfig } from '../config/schemas.js';
import type { GatewayStore } from '../store/types.js';
import { capToolDescription } from '../upstream/limits.js';
import type { UpstreamPool } from '../upstream/pool-types.js';
import type { ApprovalInbox } from './approval-inbox.js';
import type { CallDrain } from './call-drain.js';
import type { DisclosureState } from './disclosure-state.js';
import type { GatewayPrograms } from './program-gateway.js';
import type { SettleGate } from './settle-gate.js';
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
  /** The config's `guardrails` section (its `resources` / `prompts` rules), as last applied. */
  rules?: GuardrailsConfig;
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
  /** Opens when the sessions take their first activation decision (see {@link SettleGate}). */
  settle: SettleGate;
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
  /** The gateway's learner, when learning from use is on. */
  learner?: SearchLearner;
  /** How many calls after a search a successful call still counts (`learning.window`). */
  learningWindow?: number;
  /** The gateway's programs (`tool_program`), when its config serves them to any session. */
  programs?: GatewayPrograms;
}

/** One session's state: what it shares with the gateway, its server, and its current list. */
export interface SessionState {
  readonly context: GatewaySessionContext;
  readonly id: string;
  readonly profileName: string | undefined;
  /** The profile's toolsets: a reload that changes the profile replaces it. */
  scope: SessionScope;
  readonly server: Server;
  readonly telemetry: BridgeTelemetry;
  readonly batchDeadlineMs: number;
  /** The session's pipeline; set once, right after the state. */
  dispatcher: Dispatcher;
  scoped: Map<string, ToolDefinition>;
  assembly: Assembly | undefined;
  listed: McpTool[];
  listedKey: string;
  /** The key of the list the client was last answered with, once it listed. */
  servedKey: string | undefined;
  /** The draft catalog's state: the scope catalog and the definitions' hashes. */
  readonly disclosure: DisclosureState;
  initialized: boolean;
  closed: boolean;
  /** The session's learning from use, when the gateway learns. */
  learning?: LearningSession;
  /** The session's `tool_program`, when programs are on for its profile. */
  program?: ProgramTool;
}

/**
 * The session scope of a profile: its enabled and disabled toolsets.
 *
 * @param profile - the profile, or undefined for every tool
 * @returns the scope
 * @throws nothing
 */
export function scopeOfProfile(profile: GatewayProfile | undefined): SessionScope {
  const scope: SessionScope = {};
  if (profile?.enabledToolsets !== undefined) scope.enabledToolsets = profile.enabledToolsets;
  if (profile?.disabledToolsets !== undefined) scope.disabledToolsets = profile.disabledToolsets;
  return scope;
}

/**
 * Waits until the upstreams settled, and the profile's own connections (servers signed in
 * per profile) had their first try.
 *
 * @throws nothing
 */
export async function upstreamsSettledFor(
  context: GatewaySessionContext,
  profile: string | undefined,
): Promise<void> {
  await context.upstreamsSettled();
  if (profile === undefined) return;
  await (context.options.pool as Partial<Pick<UpstreamPool, 'settle'>>).settle?.(profile);
}

/**
 * The tools of the pool in a scope, descriptions cut as the gateway shows them: the
 * profile's view of the pool (its own lists of the servers it signs in to itself).
 *
 * @throws nothing
 */
export function scopedPoolTools(
  context: GatewaySessionContext,
  scope: SessionScope,
  profile?: string,
) {
  const { options, registry, maxDescriptionChars } = context;
  const tools = profile === undefined ? options.pool.tools() : options.pool.tools({ profile });
  // The pool cuts descriptions already; a tool source of another kind may not.
  const shown = tools.map((tool) => capToolDescription(tool, maxDescriptionChars));
  return scopeTools(shown, scope, registry);
}

/**
 * Assembles a scope's tools with the gateway's options, as every session does.
 *
 * @param previous - the same session's previous assembly (its decision, names, cache)
 * @throws what `assembleTools` throws (two tools of one name)
 */
export function assembleScoped(
  context: GatewaySessionContext,
  tools: ToolDefinition[],
  previous: Assembly | undefined,
  telemetry: BridgeTelemetry,
  extras: { learning?: LearningSession; program?: { definition: ToolDefinition } } = {},
): Assembly {
  const { options, registry, toolSearch, maxArgumentBytes } = context;
  const { learning, program } = extras;
  return assembleTools({
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
    // tool_program is listed whether tool search is active or not.
    ...(program === undefined ? {} : { program }),
    ...(previous === undefined ? {} : { previous }),
    ...(learning === undefined ? {} : { learning }),
    telemetry,
  });
}

/** Re-scopes and re-assembles the pool's tools; true when the listed tools changed. */
export function reassemble(state: SessionState): boolean {
  const tools = scopedPoolTools(state.context, state.scope, state.profileName);
  state.scoped = new Map(tools.map((tool) => [tool.name, tool]));
  state.assembly = assembleScoped(state.context, tools, state.assembly, state.telemetry, {
    ...(state.learning === undefined ? {} : { learning: state.learning }),
    ...(state.program === undefined ? {} : { program: state.program }),
  });
  const next = state.assembly.tools.map(toMcpTool);
  const key = JSON.stringify(next);
  const changed = key !== state.listedKey;
  state.listed = next;
  state.listedKey = key;
  return changed;
}
