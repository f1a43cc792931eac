import {
  classifyTools,
  createCatalog,
  decideActivation,
  estimateToolTokens,
  parseToolSearchConfig,
  type Ranker,
  type ToolCatalog,
  type ToolDefinition,
  type ToolSearchConfigInput,
} from '@tool-search/core';

/** How the benchmark assembles a session's tools: the one place that knows. */
export interface AssemblyPath {
  readonly id: 'bridge' | 'core';
  /** What one assembly runs, for the report. */
  readonly description: string;
  /** Assembles the tools and returns the catalog of the deferred ones. */
  assemble(tools: readonly ToolDefinition[], ranker: Ranker | undefined): Promise<ToolCatalog>;
}

/** Which path to use: the bridge when it is built and exports `assembleTools`, else core. */
export type AssemblyChoice = 'auto' | 'bridge' | 'core';

// Forced on, so that every size assembles a catalog; a 200k window as in the demo.
const CONFIG = parseToolSearchConfig({ enabled: 'on' });
const CONTEXT_WINDOW = 200_000;

/** What the bridge does, spelled out with core until `@tool-search/bridge` lands. */
function coreAssembly(): AssemblyPath {
  return {
    id: 'core',
    description:
      'core stand-in: classifyTools + estimateToolTokens + decideActivation + createCatalog, then the first search',
    async assemble(tools, ranker) {
      const { deferrable } = classifyTools(tools);
      const decision = decideActivation({
        deferrableTokens: estimateToolTokens(deferrable),
        contextWindow: CONTEXT_WINDOW,
        config: CONFIG,
      });
      if (!decision.active) throw new Error(`assembly not activated (${decision.reason})`);
      return createCatalog(deferrable, ranker === undefined ? {} : { ranker });
    },
  };
}

type AssembleTools = (input: {
  tools: readonly ToolDefinition[];
  config?: ToolSearchConfigInput;
  contextWindow?: number;
  ranker?: Ranker;
  cache?: unknown;
}) =>
  | { catalog: ToolCatalog; activated: boolean }
  | PromiseLike<{ catalog: ToolCatalog; activated: boolean }>;

function bridgeAssembly(assembleTools: AssembleTools, createCache: () => unknown): AssemblyPath {
  // One assembly cache per ranker, as a runtime holds one per session: each task has its
  // own ranker, so the other tasks' lists never evict its catalog.
  const caches = new WeakMap<Ranker, unknown>();
  const unranked = createCache();
  const cacheOf = (ranker: Ranker | undefined): unknown => {
    if (ranker === undefined) return unranked;
    let cache = caches.get(ranker);
    if (cache === undefined) {
      cache = createCache();
      caches.set(ranker, cache);
    }
    return cache;
  };
  return {
    id: 'bridge',
    description:
      '@tool-search/bridge assembleTools with one createAssemblyCache() per session, then the first search',
    async assemble(tools, ranker) {
      const assembly = await assembleTools({
        tools,
        config: CONFIG,
        contextWindow: CONTEXT_WINDOW,
        cache: cacheOf(ranker),
        ...(ranker === undefined ? {} : { ranker }),
      });
      if (!assembly.activated) throw new Error('assembly not activated');
      return assembly.catalog;
    },
  };
}

/**
 * Picks the assembly path. `auto` uses the bridge as soon as it exports
 * `assembleTools`, and the core stand-in before that.
 *
 * @throws Error when `bridge` is asked and the bridge has no `assembleTools`
 */
export async function resolveAssemblyPath(choice: AssemblyChoice = 'auto'): Promise<AssemblyPath> {
  if (choice !== 'core') {
    let assembleTools: unknown;
    let createCache: unknown;
    let reason = 'it exports no assembleTools and createAssemblyCache';
    try {
      const bridge = (await import('@tool-search/bridge')) as unknown as Record<string, unknown>;
      assembleTools = bridge['assembleTools'];
      createCache = bridge['createAssemblyCache'];
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (typeof assembleTools === 'function' && typeof createCache === 'function') {
      return bridgeAssembly(assembleTools as AssembleTools, createCache as () => unknown);
    }
    if (choice === 'bridge') {
      throw new Error(
        `--assembly bridge: @tool-search/bridge is not usable (${reason}); build it first.`,
      );
    }
  }
  return coreAssembly();
}
