import type {
  ActivationDecision,
  LearningSession,
  Ranker,
  TokenCounter,
  ToolCatalog,
  ToolDefinition,
  ToolList,
  ToolSearchConfig,
  ToolSearchConfigInput,
  ToolSearchLogger,
} from '@tool-search/core';
import {
  charsPerTokenCounter,
  createCatalog,
  createToolList,
  decideActivation,
  estimateToolTokens,
  parseToolSearchConfig,
  planActivation,
  ToolSearchError,
} from '@tool-search/core';
import {
  applyToolLoading,
  isBridgeToolName,
  learningOf,
  sameTools,
} from '@tool-search/core/internal';
import type { SkippedKeyword } from '@tool-search/core/validate';
import {
  type AssemblyCache,
  type AssemblyCacheState,
  assemblyCacheState,
  listWorkOf,
} from './assembly-memo.js';
import { countTokensSaved } from './bridge-observe.js';
import { bridgeToolsWithListing } from './definitions.js';
import type { SearchGuard } from './search-guard.js';
import { createSearchGuard, searchGuardState } from './search-guard.js';
import type { BridgeTelemetry } from './telemetry.js';
import { createBridgeTelemetry } from './telemetry.js';

/** Options of {@link assembleTools}. */
export interface AssembleOptions {
  /**
   * The session's tools, already scoped to its toolsets (e.g. with `scopeTools`
   * from `@tool-search/toolsets`). Bridge tools in the list are dropped first.
   */
  tools: readonly ToolDefinition[];
  /**
   * The tool search config, in any form `parseToolSearchConfig` accepts (a parsed
   * config, a snake_case YAML section, a boolean). @defaultValue the defaults (`auto`, 10%)
   */
  config?: ToolSearchConfigInput;
  /**
   * Receives what the config parse ignored (unknown keys, bad values), at every assembly:
   * parse once with `parseToolSearchConfig` to hear it once. @defaultValue `console`
   */
  logger?: ToolSearchLogger;
  /** The model's context window in tokens; unknown means a 20,000-token threshold. */
  contextWindow?: number;
  /** The ranker of the catalog, v1 or v2. @defaultValue the cache's BM25 ranker */
  ranker?: Ranker;
  /**
   * What this session's assemblies share from turn to turn (see
   * {@link createAssemblyCache}): the list-wide work, the toolset listings, the catalogs'
   * names and the ranker's previous index, patched for the next list's change.
   * @defaultValue `previous.cache`, else a cache of the process shared by the callers
   * that pass neither
   */
  cache?: AssemblyCache;
  /** The token counter for the estimates. @defaultValue `charsPerTokenCounter` */
  counter?: TokenCounter;
  /**
   * Make the three bridge definitions byte-identical whatever the catalog and
   * config, so a provider's prompt cache survives toolset changes; the model is
   * then not told how many tools are deferred. See {@link createBridgeTools}.
   * @defaultValue false
   */
  stableDescriptions?: boolean;
  /**
   * A fourth bridge tool, `tool_program` (`createProgramTool` of `@tool-search/code`):
   * when given, its `definition` is appended to the model-visible tools, activated or
   * not (a tool of the same name in the input is dropped first, so assembly stays
   * idempotent).
   */
  program?: { definition: ToolDefinition };
  /**
   * Bridge definitions that OpenAI's strict mode accepts; see the `strict` option of {@link createBridgeTools}.
   * @defaultValue false
   */
  strict?: boolean;
  /**
   * A toolset's one-line description for the `tool_search` description, which lists
   * the searchable toolsets (unless `stableDescriptions`), e.g.
   * `(name) => registry.get(name)?.description`. Without it, each is listed by name
   * and tool count alone. It is asked only for the toolsets listed (at most 20), and
   * its answers are remembered for the same deferred tools and the same function: when
   * the descriptions change but the tools do not, pass a new function.
   */
  describeToolset?: (toolset: string) => string | undefined;
  /** Names that stay visible whatever their source (pins from config). */
  pinned?: Iterable<string>;
  /**
   * The previous assembly of the same session. Its {@link Assembly.knownNames}
   * and the names of its tools are carried over, so that a tool the model found
   * earlier and that is gone now (its server disconnected) answers "not currently
   * available" instead of "not available in this session"; its telemetry is reused
   * unless `telemetry` is given; and when the deferred tools are the same objects in
   * the same order (and the ranker the same), its catalog is reused, so the ranker's
   * index is not rebuilt. Its decision is the previous one of `decideActivation`: an
   * active assembly stays active while the deferrable tools stay within the hysteresis
   * band under the threshold (`config.hysteresisPct`, 20% by default). Never pass another session's assembly (e.g. a
   * parent's to a narrowed subagent): its names would leak into the answers.
   */
  previous?: Assembly;
  /**
   * Names the session held before, for a runtime that does not keep the previous
   * assembly (e.g. one that resumes a saved conversation). Merged with `previous`.
   */
  knownNames?: Iterable<string>;
  /** Counters to update. @defaultValue `previous.telemetry`, else a new object */
  telemetry?: BridgeTelemetry;
  /**
   * The session's state against runaway searches (see {@link createSearchGuard}); its
   * limits come from `config.runaway` unless the guard sets its own.
   * @defaultValue `previous.searchGuard`, else a new guard with the defaults
   */
  searchGuard?: SearchGuard;
  /**
   * Learning from use (`createLearningSession` of `@tool-search/core`): the catalog ranks with the
   * profile's learned terms, and `handleBridgeCall` records the session's pairs.
   * @defaultValue `previous.learning`, else none: nothing is learned
   */
  learning?: LearningSession;
  /**
   * The largest arguments a deferred call may carry, in bytes of compact JSON: larger
   * ones are refused before their schema is checked (the check's time grows with them).
   * Give it the same limit as the runtime's argument-size guardrail.
   * @defaultValue `DEFAULT_MAX_ARGUMENT_BYTES` of `@tool-search/core/validate` (1 MiB)
   */
  maxArgumentBytes?: number;
  /**
   * Told of each keyword of a deferred tool's schema that argument checks leave
   * unchecked (a pattern the linear engine cannot run, a keyword whose check would
   * overrun its budget), once per function, tool, keyword and pointer: a log line or a
   * metric. Pass the same function to every assembly (and to the schema guardrail) to be
   * told once in all. A function that throws is ignored.
   */
  onSkippedKeyword?: (skipped: SkippedKeyword) => void;
}

/** The numbers a runtime logs about one assembly. */
export interface AssemblyStats {
  /** Tools the model sees, bridges included. */
  visibleCount: number;
  /** Tools deferred behind the bridge (0 when not activated). */
  deferredCount: number;
  /** Estimated tokens of the deferrable tools (whether or not they were deferred). */
  deferredTokens: number;
  /** The threshold the decision compared against (0 when no comparison was made). */
  thresholdTokens: number;
  /** Estimated tokens of the three bridge definitions (0 when not activated). */
  bridgeTokens: number;
  /**
   * `deferredTokens − bridgeTokens` when activated, else 0. Negative when tool
   * search is forced `on` for fewer tokens than the bridges cost.
   */
  tokensSaved: number;
}

/**
 * What one assembly gives the runtime: the model-visible tools, the decision, and
 * everything the bridge needs to answer calls. Build a new one every turn (tool
 * lists change); it is cheap, since token estimates and ranker analysis are
 * memoized per tool object.
 */
export interface Assembly {
  /**
   * The model-visible tools: the visible tools in their original order followed by
   * `tool_search`, `tool_describe`, `tool_call`; or the input minus stale bridge
   * tools when not activated.
   */
  tools: ToolDefinition[];
  /** Whether the deferrable tools were replaced by the bridges. */
  activated: boolean;
  /** The activation decision with its reason and numbers. */
  decision: ActivationDecision;
  /** The tools behind the bridge, in input order (empty when not activated). */
  deferred: ToolDefinition[];
  /** The catalog over {@link Assembly.deferred}: only this (scoped) session's tools. */
  catalog: ToolCatalog;
  /** The parsed config. */
  config: ToolSearchConfig;
  /** The numbers a runtime logs. */
  stats: AssemblyStats;
  /**
   * Names of tools this session held in earlier assemblies (from `previous` and
   * `knownNames`) that it no longer holds now. A call of one of them answers
   * "not currently available. Re-run tool_search to refresh."
   */
  knownNames: ReadonlySet<string>;
  /** The session's counters, updated in place. */
  telemetry: BridgeTelemetry;
  /**
   * The session's state against runaway searches, read and updated by
   * `handleBridgeCall`. Absent on an assembly made by hand: no search is then limited.
   */
  searchGuard?: SearchGuard;
  /** The session's learning from use, when it has one. */
  learning?: LearningSession;
  /**
   * The cache this assembly used: the next assembly given this one as `previous` uses
   * it too. Absent on an assembly made by hand.
   */
  cache?: AssemblyCache;
  /** The size limit of a deferred call's arguments (`maxArgumentBytes`), when one was given. */
  maxArgumentBytes?: number;
  /** Told of keywords left unchecked (`onSkippedKeyword`), when a function was given. */
  onSkippedKeyword?: (skipped: SkippedKeyword) => void;
}

function collectKnownNames(
  options: AssembleOptions,
  list: ToolList,
  isCurrent: (name: string) => boolean,
): Set<string> {
  const known = new Set<string>();
  const add = (name: unknown) => {
    if (typeof name === 'string' && !isCurrent(name) && !isBridgeToolName(name)) known.add(name);
  };
  if (options.previous) {
    for (const name of options.previous.knownNames) add(name);
    for (const tool of options.previous.tools) add(tool.name);
    // The previous deferred tools that are gone: at 100,000 tools a lookup of every one
    // costs more than the rest of the assembly, so when this catalog's list is the
    // previous one's, or was patched from it, only the tools it replaced are looked up.
    const before = options.previous.catalog.tools();
    const change = list.change;
    if (before === list.tools && options.previous.deferred.length === before.length) {
      // The same tools: none is gone.
    } else if (change !== undefined && change.from === options.previous.catalog.list().id) {
      for (const index of change.changed) add(before[index]!.name);
    } else {
      for (const tool of options.previous.deferred) add(tool.name);
    }
  }
  if (options.knownNames) for (const name of options.knownNames) add(name);
  return known;
}

// The next assembly of the same session reuses an unchanged catalog (and the ranker
// index it already built); the cache knows the ranker each of its catalogs was made with.
function catalogFor(
  deferred: ToolList | readonly ToolDefinition[],
  options: AssembleOptions,
  cache: AssemblyCacheState,
  learning: LearningSession | undefined,
): ToolCatalog {
  const previous = options.previous?.catalog;
  const tools = Array.isArray(deferred) ? deferred : (deferred as ToolList).tools;
  if (
    previous !== undefined &&
    cache.rankerOf.has(previous) &&
    cache.rankerOf.get(previous) === options.ranker &&
    options.previous?.learning === learning &&
    sameTools(previous.tools(), tools)
  ) {
    return previous;
  }
  const catalog = createCatalog(deferred, {
    cache: cache.catalogs,
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
    ...(learning === undefined ? {} : { learner: learning.learner }),
    ...(learning?.profile === undefined ? {} : { profile: learning.profile }),
  });
  cache.rankerOf.set(catalog, options.ranker);
  return catalog;
}

// The program tool goes last, replacing a stale copy the input may still hold.
function withProgramTool(tools: ToolDefinition[], program: ToolDefinition): ToolDefinition[] {
  return [...tools.filter((tool) => tool.name !== program.name), program];
}

function duplicateNameError(name: string): ToolSearchError {
  return new ToolSearchError(
    'duplicate_tool_name',
    `Tool '${name}' appears more than once. Give each tool a unique name: resolveToolNames (from @tool-search/core) prefixes colliding names with their server, deterministically.`,
    { data: { tool: name } },
  );
}

/**
 * Turns a session's tools into what the model sees.
 *
 * Bridge tools in the input are dropped first, so assembling a list that already
 * holds them gives the same result. Two tools of one name are rejected whatever the
 * decision (see `resolveToolNames` in `@tool-search/core`). Tools are classified (`core`, unknown source,
 * pinned and `eager` toolsets stay visible; `mcp` and `plugin` are deferrable), the deferrable
 * tools' tokens are estimated, and the gate decides; below the threshold the toolsets of
 * `config.toolsetLoading` that say `deferred` are deferred all the same. When it says no (or nothing
 * is deferrable) the input passes through unchanged; when it says yes, the
 * deferrable tools move into the catalog and the three bridges are appended to
 * the visible tools.
 *
 * @example
 * ```ts
 * const assembly = assembleTools({ tools, config: { threshold_pct: 10 }, contextWindow: 200_000 });
 * log.info(assembly.decision.reason, assembly.stats);
 * await model.generate({ tools: assembly.tools });
 * ```
 *
 * @param options - see {@link AssembleOptions}
 * @returns the {@link Assembly}
 * @throws `ToolSearchError` (from `@tool-search/core`) `invalid_argument` when `tools` is not an array,
 * `maxArgumentBytes` is not a positive number or `searchGuard` was not made by `createSearchGuard`;
 * `duplicate_tool_name` when two tools share a name, whether or not tool search activates (name them apart with `resolveToolNames` from `@tool-search/core` first); the `TypeError` of `JSON.stringify` for a schema that is not JSON
 */
export function assembleTools(options: AssembleOptions): Assembly {
  const config = parseToolSearchConfig(
    options.config,
    options.logger === undefined ? {} : { logger: options.logger },
  );
  const counter = options.counter ?? charsPerTokenCounter;
  const telemetry = options.telemetry ?? options.previous?.telemetry ?? createBridgeTelemetry();
  const searchGuard = searchGuardState(
    options.searchGuard ?? options.previous?.searchGuard ?? createSearchGuard(),
  );
  if (!Array.isArray(options?.tools)) {
    throw new ToolSearchError(
      'invalid_argument',
      `assembleTools needs { tools: ToolDefinition[] }, got ${typeof options?.tools}. Pass the session's (scoped) tool list.`,
    );
  }
  const { maxArgumentBytes } = options;
  if (
    maxArgumentBytes !== undefined &&
    (typeof maxArgumentBytes !== 'number' || !(maxArgumentBytes > 0))
  ) {
    throw new ToolSearchError(
      'invalid_argument',
      `assembleTools: maxArgumentBytes must be a positive number, got ${String(maxArgumentBytes)}.`,
    );
  }
  const cache = assemblyCacheState(options.cache ?? options.previous?.cache);
  const input = options.tools;
  const pinned = options.pinned === undefined ? undefined : [...options.pinned];
  // The whole-list work (duplicates, classification, estimate) is core's plan, memoized
  // per list so that an unchanged or slightly changed list does not redo it.
  const loading = config.toolsetLoading;
  const work = listWorkOf({
    cache,
    input,
    pinned,
    loading,
    counter,
    compute: () => {
      // The classification alone (the decision depends on the context window, which the
      // memo does not key on): 'on' keeps every deferrable tool on the deferrable side.
      const plan = planActivation(input, {
        config: { ...config, enabled: 'on' },
        counter,
        ...(pinned === undefined ? {} : { pinned }),
      });
      return {
        visible: plan.visible,
        deferrable: plan.deferrable,
        deferredTokens: plan.deferrableTokens,
      };
    },
    duplicate: duplicateNameError,
  });
  // Below the threshold, the toolsets configured `deferred` are deferred all the same.
  const loaded = applyToolLoading({
    tools: input,
    visible: work.visible,
    deferrable: work.deferrable.tools,
    decision: decideActivation({
      deferrableTokens: work.deferredTokens,
      config,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      // The session's last decision: an active one holds within the hysteresis band.
      ...(options.previous === undefined ? {} : { previous: options.previous.decision }),
    }),
    loading,
    counter,
  });
  const { visible, decision } = loaded;
  const deferrable =
    loaded.deferrable === work.deferrable.tools
      ? work.deferrable
      : createToolList(loaded.deferrable);
  const deferredTokens = decision.active ? decision.deferrableTokens : work.deferredTokens;

  let tools: ToolDefinition[];
  let deferred: ToolDefinition[];
  let bridgeTokens = 0;
  if (decision.active) {
    // The assembly's own array (callers may change it); the catalog gets the frozen one.
    deferred = [...deferrable.tools];
    const stableDescriptions = options.stableDescriptions === true;
    const bridges = bridgeToolsWithListing(
      {
        deferredCount: deferred.length,
        stableDescriptions,
        searchDefaultLimit: config.searchDefaultLimit,
        maxSearchLimit: config.maxSearchLimit,
        strict: options.strict === true,
      },
      // Made only when shown (a stable description never lists toolsets), and remembered
      // per deferred list's counts and describe function.
      stableDescriptions ? '' : cache.listings.listingOf(deferrable, options.describeToolset),
    );
    bridgeTokens = estimateToolTokens(bridges, counter);
    tools = [...visible, ...bridges];
  } else {
    deferred = [];
    tools = input.filter((tool) => !isBridgeToolName(tool.name));
  }
  if (options.program !== undefined) tools = withProgramTool(tools, options.program.definition);
  const learning = learningOf({ learning: options.learning ?? options.previous?.learning });
  const catalog = catalogFor(decision.active ? deferrable : [], options, cache, learning);

  // Names the model sees directly; small when activated (the deferred ones are in the catalog).
  const direct = new Set<string>();
  for (const tool of decision.active ? visible : tools) direct.add(tool.name);
  const knownNames = collectKnownNames(
    options,
    catalog.list(),
    (name) => catalog.has(name) || direct.has(name),
  );

  const tokensSaved = decision.active ? deferredTokens - bridgeTokens : 0;
  telemetry.assemblies += 1;
  if (decision.active) {
    telemetry.activations += 1;
    telemetry.tokensSaved += tokensSaved;
    countTokensSaved(tokensSaved);
  }

  return {
    tools,
    activated: decision.active,
    decision,
    deferred,
    catalog,
    config,
    stats: {
      visibleCount: tools.length,
      deferredCount: deferred.length,
      deferredTokens,
      thresholdTokens: decision.thresholdTokens,
      bridgeTokens,
      tokensSaved,
    },
    knownNames,
    telemetry,
    searchGuard,
    cache,
    ...(learning === undefined ? {} : { learning }),
    ...(maxArgumentBytes === undefined ? {} : { maxArgumentBytes }),
    ...(options.onSkippedKeyword === undefined
      ? {}
      : { onSkippedKeyword: options.onSkippedKeyword }),
  };
}
