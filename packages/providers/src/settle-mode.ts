import type {
  ActivationDecision,
  LearningSession,
  Ranker,
  TokenCounter,
  ToolDefinition,
  ToolSearchConfig,
  ToolSearchLogger,
} from '@tool-search/core';
import {
  chooseProviderMode,
  type ModelCapability,
  type Provider,
  type ProviderMode,
} from './capabilities.js';

/**
 * Where a preparation's warnings go; `console` is one. The same type as core's
 * `ToolSearchLogger`: one logger serves every package. `warn` is called at most once per
 * preparation, with a sentence that says what to do.
 */
export type ProviderLogger = ToolSearchLogger;

/**
 * What a bridge assembler is given: the tools and options the preparation decided on.
 * `assembleTools` of `@tool-search/bridge` takes it as it is.
 */
export interface BridgeAssemblerInput {
  /** The session's tools, as passed to the preparation. */
  tools: readonly ToolDefinition[];
  /** The parsed config. */
  config: ToolSearchConfig;
  /** The context window, when given. */
  contextWindow?: number;
  /** The ranker, when given. */
  ranker?: Ranker;
  /** The token counter, when given. */
  counter?: TokenCounter;
  /** The pins, when given. */
  pinned?: Iterable<string>;
  /** OpenAI strict mode: the bridge's strict definitions (`arguments` as JSON text). */
  strict?: boolean;
  /** The session's learning from use, when given: the bridge ranks with it and records to it. */
  learning?: LearningSession;
}

/** The least a bridge assembly has: the model-visible tools, the bridge tools among them. */
export interface BridgeAssemblyShape {
  readonly tools: readonly ToolDefinition[];
}

/**
 * Builds the bridge's assembly for `bridge` mode: pass `assembleTools` of
 * `@tool-search/bridge` (the providers package does not depend on the bridge), or a
 * function that calls it with more options (`stableDescriptions`, `previous`).
 */
export type BridgeAssembler<B extends BridgeAssemblyShape> = (input: BridgeAssemblerInput) => B;

/** The options of every `prepare*` function that choose the mode. */
export interface PrepareModeOptions<B extends BridgeAssemblyShape = BridgeAssemblyShape> {
  /** How deferred tools reach the model. @defaultValue 'auto' */
  mode?: ProviderMode;
  /**
   * The model id, for `auto` (see `DEFAULT_MODEL_CAPABILITIES`), in the platform's own
   * form or a cloud's or router's (see `canonicalModelId`).
   */
  model?: string;
  /** Capability rows that take precedence over `DEFAULT_MODEL_CAPABILITIES`. */
  capabilities?: readonly ModelCapability[];
  /**
   * Where a fallback is reported: `auto` without a native mode for the model and without
   * `bridge`, or `mode: 'bridge'` without `bridge`. One warning per preparation; the
   * config's unknown keys and bad values (see `parseToolSearchConfig`) come here too.
   * @defaultValue `console`
   */
  logger?: ProviderLogger;
  /**
   * The bridge's assembly for `bridge` mode (`assembleTools` of `@tool-search/bridge`):
   * with it, `prepared.tools` holds the visible tools and the three bridge tools, and
   * `prepared.bridge` is the assembly to answer them with (`handleBridgeCall`). Without
   * it, `auto` sends every tool as it is when the model has no native tool search.
   */
  bridge?: BridgeAssembler<B>;
}

/** What {@link settleMode} reads of the activation plan. */
export interface SettlePlan {
  tools: readonly ToolDefinition[];
  config: ToolSearchConfig;
  decision: ActivationDecision;
  deferrable: readonly ToolDefinition[];
}

/** How a preparation settles, after the decision and the mode. */
export type SettledMode<B> =
  | { kind: 'off'; reason: string }
  | { kind: 'native'; mode: 'client' | 'hosted'; reason: string }
  | { kind: 'bridge'; assembly: B | undefined; reason: string };

/**
 * Why nothing is deferred, in a sentence, for a decision that is not active.
 *
 * @param decision - the activation decision
 * @returns the reason
 * @throws nothing
 */
export function offReason(decision: ActivationDecision): string {
  switch (decision.reason) {
    case 'disabled':
      return 'tool search is off in the config: every tool is sent as it is';
    case 'nothing-deferrable':
      return 'no tool is deferrable (core, unknown-source and pinned tools stay visible): every tool is sent as it is';
    default:
      return `the deferrable tools (${decision.deferrableTokens} tokens) are below the threshold (${decision.thresholdTokens}): every tool is sent as it is`;
  }
}

/**
 * Settles the mode of one preparation: `off` below the threshold; the native mode
 * `auto` or the caller chose; `bridge` with the caller's assembler. Never silent: when
 * `auto` finds no native mode and no assembler was given, every tool is sent as it is
 * (`off`, nothing lost) and the logger hears why, once; an explicit `bridge` without an
 * assembler keeps only the visible tools, as asked, and warns as well.
 *
 * @param provider - the platform
 * @param plan - the activation plan
 * @param options - the preparation's options
 * @returns how to build the request, with the reason
 * @throws `ToolSearchError` `invalid_argument` for an unknown mode; whatever the assembler throws
 */
export function settleMode<B extends BridgeAssemblyShape>(
  provider: Provider,
  plan: SettlePlan,
  options: PrepareModeOptions<B> & Omit<BridgeAssemblerInput, 'tools' | 'config'>,
): SettledMode<B> {
  const choice = chooseProviderMode(provider, options.model, options.mode, options.capabilities);
  if (!plan.decision.active) return { kind: 'off', reason: offReason(plan.decision) };
  if (choice.mode !== 'bridge') {
    return { kind: 'native', mode: choice.mode, reason: `${choice.reason}: '${choice.mode}'` };
  }
  const logger = options.logger ?? console;
  if (options.bridge !== undefined) {
    const assembly = options.bridge({
      tools: plan.tools,
      config: plan.config,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
      ...(options.counter === undefined ? {} : { counter: options.counter }),
      ...(options.pinned === undefined ? {} : { pinned: options.pinned }),
      ...(options.strict === true ? { strict: true } : {}),
      ...(options.learning === undefined ? {} : { learning: options.learning }),
    });
    return {
      kind: 'bridge',
      assembly,
      reason: `${choice.reason}: 'bridge', the deferred tools behind the bridge tools`,
    };
  }
  if (choice.fallback) {
    const reason = `${choice.reason}: every tool is sent as it is, none deferred`;
    logger.warn(
      `@tool-search/providers: ${reason}. To defer them, pass \`bridge: assembleTools\` (from @tool-search/bridge), a \`capabilities\` row for this model, or \`mode\`.`,
    );
    return { kind: 'off', reason };
  }
  const reason = `mode 'bridge' was asked for without \`bridge\`: prepared.tools holds only the visible tools`;
  logger.warn(
    `@tool-search/providers: ${reason}; the ${plan.deferrable.length} deferred tools are reachable only through the bridge tools. Pass \`bridge: assembleTools\` (from @tool-search/bridge) to have them in prepared.tools.`,
  );
  return { kind: 'bridge', assembly: undefined, reason };
}
