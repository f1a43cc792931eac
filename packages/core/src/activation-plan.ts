import type { ActivationDecision, PreviousActivation } from './activation.js';
import { decideActivation } from './activation.js';
import { classifyTools, isBridgeToolName } from './classify.js';
import type { ToolSearchConfig, ToolSearchConfigInput } from './config.js';
import { parseToolSearchConfig } from './config.js';
import { ToolSearchError } from './errors.js';
import type { ToolSearchLogger } from './logger.js';
import type { TokenCounter } from './tokens.js';
import { charsPerTokenCounter, estimateToolTokens } from './tokens.js';
import { applyToolLoading } from './tool-loading.js';
import type { ToolDefinition } from './types.js';

/** Options of {@link planActivation}. */
export interface ActivationPlanOptions {
  /**
   * The tool search config, in any form `parseToolSearchConfig` accepts (a parsed
   * config, a snake_case YAML section, a boolean). @defaultValue the defaults (`auto`, 10%)
   */
  config?: ToolSearchConfigInput;
  /**
   * Receives what the config parse ignored (unknown keys, bad values); see
   * `parseToolSearchConfig`. @defaultValue `console`
   */
  logger?: ToolSearchLogger;
  /** The model's context window in tokens; unknown means a 20,000-token threshold. */
  contextWindow?: number;
  /** The token counter of the estimate. @defaultValue `charsPerTokenCounter` */
  counter?: TokenCounter;
  /** Names that stay visible whatever their source (pins from config). */
  pinned?: Iterable<string>;
  /**
   * The same session's previous decision: an `auto` decision that was active stays
   * active within the hysteresis band under the threshold (see `decideActivation`).
   */
  previous?: PreviousActivation;
}

/**
 * One request's activation plan, before any wire format: what every route (the
 * bridge, the providers' native modes, the AI SDK adapter) decides alike.
 */
export interface ActivationPlan {
  /** The parsed config. */
  config: ToolSearchConfig;
  /** The input without stale bridge tools, in order: what goes out when not activated. */
  tools: ToolDefinition[];
  /** Tools the model always sees: core, unknown source, `alwaysLoad`, pinned. */
  visible: ToolDefinition[];
  /** Tools that may be deferred (`mcp`, `plugin`), in input order. */
  deferrable: ToolDefinition[];
  /** Estimated tokens of {@link ActivationPlan.deferrable}. */
  deferrableTokens: number;
  /** The decision: whether the deferrable tools are deferred, and why. */
  decision: ActivationDecision;
}

/**
 * Decides one request's activation the same way on every route: stale bridge tools
 * dropped, duplicate names rejected on both sides of the threshold, tools classified
 * (core tools never deferred, pins and `eager` toolsets kept visible), the deferrable
 * tools' tokens estimated over their model-facing JSON, and the threshold applied; below
 * it, the tools of `deferred` toolsets (`config.toolsetLoading`) are deferred all the
 * same, and the other deferrable tools join the visible ones (reason `toolset-deferred`).
 * Given the session's `previous` decision, an active one is held within the hysteresis
 * band under the threshold (reason `within-band`).
 *
 * @example
 * ```ts
 * const plan = planActivation(tools, { config: { threshold_pct: 10 }, contextWindow: 200_000 });
 * if (plan.decision.active) send(plan.visible, plan.deferrable);
 * ```
 *
 * @param tools - the session's (scoped) tools
 * @param options - see {@link ActivationPlanOptions}
 * @returns the {@link ActivationPlan}
 * @throws `ToolSearchError` `invalid_argument` when `tools` is not an array;
 * `duplicate_tool_name` when two tools share a name, whether or not tool search activates
 * (name them apart with `resolveToolNames` first); the `TypeError` of `JSON.stringify` for a
 * schema that is not JSON (a config that does not parse falls back to the defaults, as
 * `parseToolSearchConfig` does)
 */
export function planActivation(
  tools: readonly ToolDefinition[],
  options: ActivationPlanOptions = {},
): ActivationPlan {
  if (!Array.isArray(tools)) {
    throw new ToolSearchError(
      'invalid_argument',
      `Expected an array of ToolDefinition, got ${typeof tools}. Pass the session's (scoped) tool list.`,
    );
  }
  rejectDuplicateNames(tools);
  const config = parseToolSearchConfig(
    options.config,
    options.logger === undefined ? {} : { logger: options.logger },
  );
  const loading = config.toolsetLoading;
  const classified = classifyTools(tools, {
    ...(options.pinned === undefined ? {} : { pinned: options.pinned }),
    ...(loading === undefined ? {} : { loading }),
  });
  const counter = options.counter ?? charsPerTokenCounter;
  const allTokens =
    classified.deferrable.length > 0 ? estimateToolTokens(classified.deferrable, counter) : 0;
  const input: Parameters<typeof decideActivation>[0] = { deferrableTokens: allTokens, config };
  if (options.contextWindow !== undefined) input.contextWindow = options.contextWindow;
  if (options.previous !== undefined) input.previous = options.previous;
  const current = tools.filter((tool) => !isBridgeToolName(tool.name));
  // Toolsets configured `deferred` are deferred below the threshold too.
  const { visible, deferrable, decision } = applyToolLoading({
    tools: current,
    visible: classified.visible,
    deferrable: classified.deferrable,
    decision: decideActivation(input),
    loading,
    counter,
  });
  return {
    config,
    tools: current,
    visible: [...visible],
    deferrable: [...deferrable],
    deferrableTokens: decision.active ? decision.deferrableTokens : allTokens,
    decision,
  };
}

// Checked before the decision, so a list is accepted or rejected the same way on both
// sides of the threshold: a bridge or a platform could not tell which of two
// same-named tools a call means.
function rejectDuplicateNames(tools: readonly ToolDefinition[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    const name = tool?.name;
    if (typeof name !== 'string' || isBridgeToolName(name)) continue;
    if (seen.has(name)) {
      throw new ToolSearchError(
        'duplicate_tool_name',
        `Tool '${name}' appears more than once. Give each tool a unique name: resolveToolNames (from @tool-search/core) prefixes colliding names with their server, deterministically.`,
        { data: { tool: name } },
      );
    }
    seen.add(name);
  }
}
