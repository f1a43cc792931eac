import type {
  ActivationDecision,
  LearningSession,
  ProviderObjectSchema,
  Ranker,
  TokenCounter,
  ToolCatalog,
  ToolDefinition,
  ToolNameMap,
  ToolSearchConfig,
  ToolSearchConfigInput,
} from '@tool-search/core';
import { createCatalog, planActivation, ToolSearchError } from '@tool-search/core';
import { callSucceeded, learningOf } from '@tool-search/core/internal';
import type { PreparedMode } from './capabilities.js';
import type { PreparedProgrammatic, ProgrammaticOptions } from './programmatic.js';
import type { BridgeAssemblyShape, PrepareModeOptions } from './settle-mode.js';

/** The options every `prepare*` function takes. */
export interface PrepareOptions<B extends BridgeAssemblyShape = BridgeAssemblyShape>
  extends PrepareModeOptions<B> {
  /**
   * The tool search config, in any form `parseToolSearchConfig` accepts.
   * @defaultValue the defaults (`auto`, 10%, search limits 5 and 20)
   */
  config?: ToolSearchConfigInput;
  /** The model's context window in tokens; unknown means a 20,000-token threshold. */
  contextWindow?: number;
  /** The ranker of the catalog that answers searches. @defaultValue `createBm25Ranker()` */
  ranker?: Ranker;
  /** The token counter of the activation estimate. @defaultValue `charsPerTokenCounter` */
  counter?: TokenCounter;
  /** Names that are never deferred whatever their source (pins from config). */
  pinned?: Iterable<string>;
  /**
   * The name of our search tool in `client` mode (Anthropic; OpenAI's is always
   * `tool_search`). @defaultValue 'tool_search'
   */
  searchToolName?: string;
  /**
   * The platform's own programmatic tool calling (Anthropic's code execution tool with
   * `allowed_callers`, OpenAI's `programmatic_tool_calling`): the tools the policy allows
   * (read-only ones by default; pass `createProgramPolicy()` of `@tool-search/code`, the
   * same object the dispatcher's guardrails hold) are sent as callable from a program.
   * Route the calls with the provider's `route*`/`dispatch*` helpers, which dispatch a
   * nested call with `via: 'program'`. `true` means `{}`. @defaultValue off
   */
  programmatic?: ProgrammaticOptions | boolean;
  /**
   * The session's learning from use (`createLearningSession` of `@tool-search/core`): hold
   * one per session and give it to every request's preparation. In `client` mode our
   * search ranks with the terms its profile learned and `answer*ToolSearch` notes each
   * search; the `dispatch*` helpers (or `learning.recordCall(name, succeeded)` in your
   * own loop) note each call, and a successful call of a tool a recent search returned
   * records the pair. In `bridge` mode the bridge does the same. In `hosted` mode the
   * platform searches, so nothing is learned. @defaultValue none: nothing is learned
   */
  learning?: LearningSession;
}

/**
 * What a `prepare*` function gives: the request's tools and everything the answer
 * functions need. Prepare again for every request (tool lists and scopes change); a
 * search answer must come from the preparation of the request it answers.
 */
export interface PreparedTools<T, B = unknown> {
  /**
   * The mode used; `off` when every tool is sent as it is: below the threshold, or
   * `auto` without a native mode for the model and without `bridge` (see `reason`).
   */
  mode: PreparedMode;
  /**
   * Why this mode, in a sentence: the model's support, the threshold, a fallback. A
   * fallback is also reported through `logger`.
   */
  reason: string;
  /** What goes into the request's `tools`. */
  tools: T[];
  /** The session's names of the tools sent deferred, or kept back (`client` on OpenAI, `bridge`). */
  deferred: readonly string[];
  /** The activation decision, the same in every mode. */
  decision: ActivationDecision;
  /** The catalog over the deferred tools: only this (scoped) session's tools. */
  catalog: ToolCatalog;
  /** The parsed config (its search limits bound every answer). */
  config: ToolSearchConfig;
  /**
   * Session names to the provider's names and back: map a tool call's name with
   * `names.fromProvider(name)` before dispatching it.
   */
  names: ToolNameMap;
  /** The name of our search tool in `client` mode; `undefined` in the other modes. */
  searchToolName: string | undefined;
  /**
   * In `bridge` mode with the `bridge` option: the bridge's assembly, to answer the
   * bridge tools with (`handleBridgeCall(prepared.bridge, call, dispatch)`); else `undefined`.
   */
  bridge: B | undefined;
  /** Whether the functions were sent in strict mode (OpenAI `strict`). */
  strict: boolean;
  /**
   * With the `programmatic` option: the tools sent as callable from a platform program and
   * the program caller type; else `undefined`.
   */
  programmatic: PreparedProgrammatic | undefined;
  /** The session's learning from use, when the preparation was given one. */
  learning?: LearningSession;
}

/** The shared activation plan of a request, before any provider format. */
export interface DeferralPlan {
  config: ToolSearchConfig;
  /** The input without stale bridge tools, in order: what `off` sends. */
  tools: ToolDefinition[];
  visible: ToolDefinition[];
  deferrable: ToolDefinition[];
  decision: ActivationDecision;
  catalog: ToolCatalog;
}

/** The default name of our client-mode search tool. */
export const DEFAULT_SEARCH_TOOL_NAME = 'tool_search';

/**
 * The activation plan of one request, the same as the bridge's assembly: the same
 * classification (core and unknown sources and pins stay visible), the same estimate
 * over the same model-facing JSON, the same threshold. Only the wire format differs
 * between the modes.
 *
 * @param tools - the session's (scoped) tools
 * @param options - the shared options
 * @returns the plan
 * @throws `ToolSearchError` `invalid_argument` when `tools` is not an array; `invalid_tool_definition` for an entry without a string name; `duplicate_tool_name` when two tools share a name
 */
export function planDeferral(
  tools: readonly ToolDefinition[],
  options: PrepareOptions,
): DeferralPlan {
  if (!Array.isArray(tools)) {
    throw new ToolSearchError(
      'invalid_argument',
      `Expected an array of ToolDefinition, got ${typeof tools}. Pass the session's (scoped) tool list.`,
    );
  }
  for (const [index, tool] of tools.entries()) {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw new ToolSearchError(
        'invalid_tool_definition',
        `tools[${index}] is not a ToolDefinition with a string name. Validate untrusted tools with validateToolDefinitions (from @tool-search/core) first.`,
        { data: { field: `tools[${index}]` } },
      );
    }
  }
  const {
    config,
    tools: current,
    visible,
    deferrable,
    decision,
  } = planActivation(tools, {
    config: options.config,
    // The config's unknown keys and bad values reach the same logger as the fallbacks.
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.pinned === undefined ? {} : { pinned: options.pinned }),
  });
  const deferred = decision.active ? deferrable : [];
  const learning = learningOf({ learning: options.learning });
  const catalog = createCatalog(deferred, {
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
    ...(learning === undefined ? {} : { learner: learning.learner }),
    ...(learning?.profile === undefined ? {} : { profile: learning.profile }),
  });
  return { config, tools: current, visible, deferrable, decision, catalog };
}

/** A parsed search call: the query and the clamped limit, or the error the model sees. */
export type SearchRequest =
  | { ok: true; query: string; limit: number }
  | { ok: false; error: string };

/**
 * Reads a search call's arguments, an object (Anthropic) or JSON text (some OpenAI
 * paths), and clamps the limit to [1, `config.maxSearchLimit`].
 *
 * @param input - the call's arguments
 * @param config - the parsed config
 * @returns the query and limit, or the error text the model sees
 * @throws nothing
 */
export function readSearchRequest(input: unknown, config: ToolSearchConfig): SearchRequest {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = value.trim() === '' ? {} : JSON.parse(value);
    } catch {
      return { ok: false, error: 'query is required' };
    }
  }
  const record =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const query = typeof record['query'] === 'string' ? record['query'].trim() : '';
  if (query === '') return { ok: false, error: 'query is required' };
  const raw = record['limit'];
  const asked = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
  const limit = Number.isFinite(asked)
    ? Math.min(config.maxSearchLimit, Math.max(1, Math.floor(asked)))
    : config.searchDefaultLimit;
  return { ok: true, query, limit };
}

/**
 * Searches a preparation's catalog and keeps only its deferred tools: the catalog holds
 * nothing else, and the check keeps it so if a custom ranker or a reused catalog ever
 * disagreed.
 *
 * @param prepared - the preparation
 * @param query - the model's query
 * @param limit - the clamped limit
 * @returns the tools found, best first
 * @throws `ToolSearchError` `ranker_failed` when the ranker fails
 */
export async function searchDeferred(
  prepared: Pick<PreparedTools<unknown>, 'catalog' | 'deferred' | 'learning'>,
  query: string,
  limit: number,
): Promise<ToolDefinition[]> {
  const allowed = new Set(prepared.deferred);
  const hits = await prepared.catalog.search(query, { limit });
  const found: ToolDefinition[] = [];
  for (const hit of hits) {
    const tool = prepared.catalog.get(hit.name);
    if (tool !== undefined && allowed.has(tool.name)) found.push(tool);
  }
  // The session's learning notes what the search returned (its terms, never its text).
  learningOf(prepared)?.noteSearch(
    query,
    found.map((tool) => tool.name),
  );
  return found;
}

/**
 * Tells the session's learning of a call the `dispatch*` helpers settled (core's
 * `callSucceeded` decides: a denied, failed, cancelled or refused call, or an MCP result
 * with `isError`, never counts).
 *
 * @param prepared - the preparation the call came from
 * @param name - the session's name of the tool called
 * @param outcome - what the dispatcher answered, or the refusal
 * @throws nothing
 */
export function noteDispatched(
  prepared: Pick<PreparedTools<unknown>, 'learning'>,
  name: string,
  outcome: unknown,
): void {
  learningOf(prepared)?.noteCall(name, callSucceeded(outcome));
}

/**
 * Checks that a search answer comes from a preparation in `client` mode, as every
 * provider's `answer*ToolSearch` needs.
 *
 * @param prepared - the preparation
 * @param helper - the answering function's name, for the message
 * @throws `ToolSearchError` `invalid_argument` when the preparation is in another mode
 */
export function requireClientMode(
  prepared: Pick<PreparedTools<unknown>, 'mode'>,
  helper: string,
): void {
  if (prepared.mode !== 'client') {
    throw new ToolSearchError(
      'invalid_argument',
      `${helper} needs a preparation in 'client' mode, got '${prepared.mode}'.`,
    );
  }
}

/**
 * The parameters of our client-mode search tool, the same on every provider but for the
 * word the model reads (`tool` or `function`) and OpenAI's closed object.
 *
 * @param limits - the config's default and largest search limits
 * @param noun - what the model loads: `tool` (Anthropic) or `function` (OpenAI)
 * @param closed - add `additionalProperties: false`
 * @returns the JSON Schema of `{ query, limit? }`
 * @throws nothing
 */
export function searchToolParameters(
  limits: { fallback: number; max: number },
  noun: 'tool' | 'function',
  closed = false,
): ProviderObjectSchema {
  return {
    type: 'object',
    properties: {
      query: { type: 'string', description: `What the ${noun} should do, in a few words.` },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: limits.max,
        description: `How many ${noun}s to load (default ${limits.fallback}).`,
      },
    },
    required: ['query'],
    ...(closed ? { additionalProperties: false } : {}),
  };
}
