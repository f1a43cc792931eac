import type { Assembly } from '@tool-search/bridge';
import { assembleTools, createAssemblyCache, createSearchGuard } from '@tool-search/bridge';
import type {
  LearningSession,
  LearningSessionOptions,
  Ranker,
  ToolDefinition,
} from '@tool-search/core';
import { createLearningSession } from '@tool-search/core';
import { scopeTools } from '@tool-search/toolsets';
import type { ModelMessage, ToolSet } from 'ai';
import type { ActivationOptions } from './activation.js';
import { loadedToolNames } from './loaded-tools.js';
import { type ToolSetLabels, toolDefinitionsFromToolSet } from './tool-set-definitions.js';

/** What {@link createSessionAssembler} reads of the setup's options. */
export interface SessionAssemblerOptions extends ActivationOptions, ToolSetLabels {
  ranker?: Ranker;
  learning?: LearningSessionOptions;
  activeTools?: readonly string[];
}

/** The assemblies of one `withToolSearch` setup, and the tool definitions they are made of. */
export interface SessionAssembler {
  /**
   * The assembly of a step: the tools in scope, the tools loaded by `tool_describe` in
   * these messages pinned. With tools loaded, the decision of the first step (none
   * loaded) is the previous one, so that loading a tool does not switch tool search off.
   */
  assemble(messages?: readonly ModelMessage[]): Promise<Assembly>;
  /** The session's tools: those of its toolsets, within the `activeTools` option. */
  inScope(): ToolDefinition[];
  /** A tool's definition, once the first assembly converted the tool set. */
  toolOf(name: string): ToolDefinition | undefined;
  /** The session's learning, with the `learning` option. */
  learning?: LearningSession;
}

const ASSEMBLY_MEMO = 32;

/**
 * The assembler of a setup: converts the tool set once (lazily), and assembles per
 * step, memoized by the tools the conversation loaded.
 *
 * @param tools - the user's tool set
 * @param options - activation, labels, scope, ranker, learning
 * @param programOf - the program tool, once the setup made one
 * @returns the assembler
 * @throws nothing; `assemble` rejects with `invalid_tool_definition` when a tool's schema
 * cannot be converted
 */
export function createSessionAssembler(
  tools: ToolSet,
  options: SessionAssemblerOptions,
  programOf: () => { definition: ToolDefinition } | undefined,
): SessionAssembler {
  let definitions: Promise<Map<string, ToolDefinition>> | undefined;
  let known = new Map<string, ToolDefinition>();
  const assemblies = new Map<string, Assembly>();
  // One session: one guard against runaway searches and one assembly cache, whichever
  // set of loaded tools an assembly was made for.
  const searchGuard = createSearchGuard();
  const cache = createAssemblyCache();
  const learning = options.learning ? createLearningSession(options.learning) : undefined;

  const inScope = () => {
    const allowed = options.activeTools ? new Set(options.activeTools) : undefined;
    const all = [...known.values()].filter((tool) => allowed?.has(tool.name) ?? true);
    return options.scope ? scopeTools(all, options.scope, options.registry) : all;
  };
  const build = (loaded: readonly string[], previous: Assembly | undefined): Assembly => {
    const program = programOf();
    return assembleTools({
      tools: inScope(),
      ...(options.config !== undefined ? { config: options.config } : {}),
      ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
      ...(options.ranker ? { ranker: options.ranker } : {}),
      ...(options.counter ? { counter: options.counter } : {}),
      pinned: [...(options.pinned ?? []), ...loaded],
      stableDescriptions: true,
      searchGuard,
      cache,
      ...(previous ? { previous } : {}),
      ...(learning ? { learning } : {}),
      ...(program ? { program } : {}),
    });
  };
  const memoized = (loaded: readonly string[], previous?: Assembly): Assembly => {
    const key = loaded.join('\u0000');
    const memo = assemblies.get(key);
    if (memo) return memo;
    const assembly = build(loaded, previous);
    if (assemblies.size >= ASSEMBLY_MEMO) assemblies.delete(assemblies.keys().next().value!);
    assemblies.set(key, assembly);
    return assembly;
  };
  const assemble = async (messages?: readonly ModelMessage[]): Promise<Assembly> => {
    definitions ??= toolDefinitionsFromToolSet(tools, options).then(
      (list) => new Map(list.map((tool) => [tool.name, tool])),
    );
    known = await definitions;
    const loaded = loadedToolNames(messages);
    if (loaded.length === 0) return memoized(loaded);
    return memoized(loaded, memoized([]));
  };
  return {
    assemble,
    inScope,
    toolOf: (name) => known.get(name),
    ...(learning ? { learning } : {}),
  };
}
