import { assembleTools } from '@tool-search/bridge';
import { estimateToolTokens, type ToolDefinition, type ToolSearchConfig } from '@tool-search/core';
import type { UpstreamPool } from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { findUnmatchedRules } from '@tool-search/mcp/config';
import { detectToolPoisoning, reviewKey } from '@tool-search/mcp/review';
import { type DiffLine, definitionLines, diffLines } from './console-diff.js';
import type { ConsoleToolPolicy } from './console-policy.js';
import { HELD_BY_OPERATOR } from './console-review.js';

/** One tool as the console's Tools page shows it. */
export interface ConsoleTool {
  /** `server/upstreamName`: what accept and hold name. */
  key: string;
  /** The exposed name (the upstream name for a held tool). */
  name: string;
  server: string;
  toolset?: string;
  description: string;
  /** The input schema, as served (or as held). */
  inputSchema: unknown;
  /** `visible` (listed to the model), `deferred` (behind tool search), `held` (review). */
  loading: 'visible' | 'deferred' | 'held';
  /** The estimated tokens of its definition in a request. */
  tokens: number;
  /** `accepted`, `new`, `changed` or `held` (review), `unreviewed` when review is off. */
  review: 'accepted' | 'new' | 'changed' | 'held' | 'unreviewed';
  /** Why it is held, in words. */
  heldDetail?: string;
  /** Instruction-like text aimed at the model (labels and where). */
  poisoning: { label: string; where: string; excerpt: string }[];
  /**
   * For a changed tool: its definition against the accepted one, line by line, when this
   * console saw the accepted one served (absent when it was accepted before it started).
   */
  diff?: DiffLine[];
  /** What applies to it (guardrails, approval, the upstream's read-only hint); absent for a held tool. */
  policy?: ConsoleToolPolicy;
  /** An operator switched it off (`tools/switch`): every call of it is refused, on every replica. */
  switchedOff?: true;
  /** The terms learned from use that led to it, per profile (heaviest first), when learning is on. */
  learned?: { profile: string; terms: Record<string, number> }[];
}

/** The accepted definitions this console saw served, by review key. */
export type AcceptedDefinitions = Map<string, { fingerprint: string; tool: ToolDefinition }>;

/** What the Tools page shows: every tool, and the policy patterns that match none. */
export interface ConsoleToolsView {
  tools: ConsoleTool[];
  unmatchedRules: { path: string; pattern: string }[];
  /** The review mode (`review.hold`). */
  hold: string;
  /** Whether tool search is active for a session that sees every tool (the gateway token's). */
  searchActive: boolean;
}

/** What decides whether tool search activates: the config's `toolSearch` and the context window. */
export interface ConsoleActivation {
  toolSearch?: ToolSearchConfig;
  contextWindow?: number;
}

function viewOf(
  tool: ToolDefinition,
  server: string,
  upstreamName: string,
  loading: ConsoleTool['loading'],
  review: ConsoleTool['review'],
): ConsoleTool {
  return {
    key: reviewKey(server, upstreamName),
    name: tool.name,
    server,
    ...(tool.toolset === undefined ? {} : { toolset: tool.toolset }),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    loading,
    tokens: estimateToolTokens([tool]),
    review,
    poisoning: detectToolPoisoning(tool).map(({ label, where, excerpt }) => ({
      label,
      where,
      excerpt,
    })),
  };
}

/**
 * The console's catalog: the pool's tools by server (listed or deferred behind tool
 * search, as for a session that sees every tool; estimated tokens, review state,
 * poisoning flags), the held ones, and the rules matching no tool.
 *
 * @param pool - the upstream pool
 * @param config - the gateway config
 * @param accepted - the accepted fingerprints (review file or store)
 * @param seen - the accepted definitions seen served, for the diff of a changed tool
 * @param activation - the tool search config and context window of the gateway
 * @returns the view
 * @throws nothing
 */
export function consoleTools(
  pool: Pick<UpstreamPool, 'tools' | 'status' | 'fingerprints'>,
  config: Pick<GatewayConfig, 'guardrails' | 'approval' | 'pins' | 'review'>,
  accepted: ReadonlyMap<string, string>,
  seen: AcceptedDefinitions = new Map(),
  activation: ConsoleActivation = {},
): ConsoleToolsView {
  const served = pool.tools();
  const assembly = assembleTools({
    tools: served,
    ...(activation.toolSearch === undefined ? {} : { config: activation.toolSearch }),
    ...(activation.contextWindow === undefined ? {} : { contextWindow: activation.contextWindow }),
  });
  const deferred = new Set(assembly.activated ? assembly.deferred.map((tool) => tool.name) : []);
  const fingerprints = new Map(
    pool.fingerprints().map((item) => [reviewKey(item.server, item.name), item.fingerprint]),
  );
  const reviewing = config.review.hold !== 'none';
  const reviewOf = (key: string): ConsoleTool['review'] => {
    if (!reviewing) return 'unreviewed';
    const before = accepted.get(key);
    if (before === undefined) return 'new';
    if (before === HELD_BY_OPERATOR) return 'held';
    return before === fingerprints.get(key) ? 'accepted' : 'changed';
  };
  const tools = served.map((tool) => {
    const server = tool.origin?.server ?? '';
    const name = tool.origin?.name ?? tool.name;
    const key = reviewKey(server, name);
    return viewOf(
      tool,
      server,
      name,
      deferred.has(tool.name) ? 'deferred' : 'visible',
      reviewOf(key),
    );
  });
  for (const status of pool.status()) {
    for (const held of status.heldTools) {
      const view = viewOf(
        held.tool ?? { name: held.name, inputSchema: { type: 'object' } },
        status.name,
        held.name,
        'held',
        held.reason === 'changed' ? 'changed' : held.reason === 'new' ? 'new' : 'held',
      );
      tools.push({ ...view, heldDetail: held.detail });
    }
  }
  for (const view of tools) {
    const before = seen.get(view.key);
    if (view.review !== 'changed' || before === undefined) continue;
    view.diff = diffLines(
      definitionLines(before.tool),
      definitionLines({
        description: view.description,
        inputSchema: view.inputSchema as ToolDefinition['inputSchema'],
      }),
    );
  }
  tools.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    tools,
    unmatchedRules: findUnmatchedRules(config, served).map(({ path, pattern }) => ({
      path,
      pattern,
    })),
    hold: config.review.hold,
    searchActive: assembly.activated,
  };
}

/**
 * Remembers the served definition of every tool whose current fingerprint is the
 * accepted one: what a later change is shown against.
 *
 * @param pool - the upstream pool
 * @param accepted - the accepted fingerprints
 * @param seen - the definitions remembered so far (updated)
 * @throws nothing
 */
export function rememberAccepted(
  pool: Pick<UpstreamPool, 'tools' | 'fingerprints'>,
  accepted: ReadonlyMap<string, string>,
  seen: AcceptedDefinitions,
): void {
  const current = new Map(
    pool.fingerprints().map((item) => [reviewKey(item.server, item.name), item.fingerprint]),
  );
  for (const tool of pool.tools()) {
    if (tool.origin === undefined) continue;
    const key = reviewKey(tool.origin.server, tool.origin.name);
    const fingerprint = current.get(key);
    if (fingerprint !== undefined && accepted.get(key) === fingerprint) {
      seen.set(key, { fingerprint, tool });
    }
  }
}
