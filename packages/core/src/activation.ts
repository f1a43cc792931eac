import type { ToolSearchConfig } from './config.js';

/** The threshold used by `auto` when the context window is unknown or zero. */
export const UNKNOWN_CONTEXT_THRESHOLD_TOKENS = 20_000;

/** Why tool search is, or is not, active. */
export type ActivationReason =
  | 'disabled'
  | 'nothing-deferrable'
  | 'forced-on'
  | 'above-threshold'
  | 'below-threshold'
  /**
   * Below the threshold, but within the hysteresis band under it, after an active
   * decision: kept active so that the tool list does not flip (see {@link decideActivation}).
   */
  | 'within-band'
  /** Below the threshold, but toolsets configured `deferred` are deferred all the same. */
  | 'toolset-deferred';

/** The activation decision, with the numbers a runtime logs. */
export interface ActivationDecision {
  /** Whether the deferrable tools are replaced by the bridge tools. */
  active: boolean;
  /** Why. */
  reason: ActivationReason;
  /** The estimated tokens of the deferrable tools. */
  deferrableTokens: number;
  /** The threshold compared against; `0` when no comparison was made. */
  thresholdTokens: number;
}

/**
 * The default hysteresis band of `auto`, in percent of the threshold: once active, a
 * decision stays active until the deferrable tokens fall below `threshold × (1 − 20%)`.
 */
export const DEFAULT_HYSTERESIS_PCT = 20;

/**
 * The lowest deferrable size, in tokens, at which an active `auto` decision stays active:
 * `threshold − floor(threshold × hysteresisPct / 100)`, `hysteresisPct` from the config
 * (default {@link DEFAULT_HYSTERESIS_PCT}, clamped to [0, 100]).
 *
 * @param config - the parsed config
 * @param thresholdTokens - the threshold of {@link activationThreshold}
 * @returns the floor of the band, in tokens
 * @throws nothing
 */
export function hysteresisFloor(
  config: Pick<ToolSearchConfig, 'hysteresisPct'>,
  thresholdTokens: number,
): number {
  const raw = config.hysteresisPct;
  const pct =
    typeof raw === 'number' && Number.isFinite(raw)
      ? Math.min(100, Math.max(0, raw))
      : DEFAULT_HYSTERESIS_PCT;
  return thresholdTokens - Math.floor((thresholdTokens * pct) / 100);
}

/** An earlier decision of the same session, as {@link decideActivation} reads it. */
export type PreviousActivation = Pick<ActivationDecision, 'active' | 'reason'>;

// Held only when the earlier decision was the threshold's own: a decision forced on, or
// active for `deferred` toolsets alone, says nothing about the size.
function heldByBand(previous: PreviousActivation | undefined): boolean {
  return (
    previous?.active === true &&
    (previous.reason === 'above-threshold' || previous.reason === 'within-band')
  );
}

/**
 * The threshold in tokens for `auto`: `config.thresholdTokens` when set, else
 * `floor(contextWindow * thresholdPct / 100)`, else 20,000 for an unknown or zero window.
 *
 * @param config - the parsed config
 * @param contextWindow - the model's context window in tokens, if known
 * @returns the threshold
 * @throws nothing
 */
export function activationThreshold(
  config: Pick<ToolSearchConfig, 'thresholdPct' | 'thresholdTokens'>,
  contextWindow?: number,
): number {
  if (config.thresholdTokens !== undefined && Number.isFinite(config.thresholdTokens)) {
    return Math.max(0, Math.floor(config.thresholdTokens));
  }
  if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) {
    return UNKNOWN_CONTEXT_THRESHOLD_TOKENS;
  }
  return Math.floor((contextWindow * config.thresholdPct) / 100);
}

/**
 * Decides whether tool search is active for one assembly.
 *
 * - `off` → never; zero deferrable tokens → no; `on` → yes;
 * - `auto` → `deferrableTokens >= threshold` (inclusive), the threshold from
 *   {@link activationThreshold};
 * - hysteresis: given `previous`, the same session's earlier decision, an `auto` decision
 *   that was active by the threshold stays active (reason `within-band`) while the
 *   deferrable tokens stay at or above {@link hysteresisFloor} (the threshold minus
 *   `hysteresisPct`, default 20%, of it). It activates above the threshold and deactivates
 *   only below the band, so that a server that leaves and comes back does not flip the
 *   tool list (and the provider's prompt cache with it).
 *
 * @example
 * ```ts
 * decideActivation({ deferrableTokens: 20_000, contextWindow: 200_000, config });
 * // → { active: true, reason: 'above-threshold', deferrableTokens: 20000, thresholdTokens: 20000 }
 * ```
 *
 * @param input.deferrableTokens - estimated tokens of the deferrable tools
 * @param input.contextWindow - the model's context window, if known
 * @param input.config - the parsed config
 * @param input.previous - the session's previous decision, for the hysteresis band
 * @returns the decision with its reason and both numbers
 * @throws nothing
 */
export function decideActivation(input: {
  deferrableTokens: number;
  contextWindow?: number;
  config: ToolSearchConfig;
  previous?: PreviousActivation;
}): ActivationDecision {
  const { config } = input;
  const deferrableTokens = Number.isFinite(input.deferrableTokens)
    ? Math.max(0, input.deferrableTokens)
    : 0;
  if (config.enabled === 'off') {
    return { active: false, reason: 'disabled', deferrableTokens, thresholdTokens: 0 };
  }
  if (deferrableTokens === 0) {
    return { active: false, reason: 'nothing-deferrable', deferrableTokens, thresholdTokens: 0 };
  }
  if (config.enabled === 'on') {
    return { active: true, reason: 'forced-on', deferrableTokens, thresholdTokens: 0 };
  }
  const thresholdTokens = activationThreshold(config, input.contextWindow);
  const active = deferrableTokens >= thresholdTokens;
  if (
    !active &&
    heldByBand(input.previous) &&
    deferrableTokens >= hysteresisFloor(config, thresholdTokens)
  ) {
    return { active: true, reason: 'within-band', deferrableTokens, thresholdTokens };
  }
  return {
    active,
    reason: active ? 'above-threshold' : 'below-threshold',
    deferrableTokens,
    thresholdTokens,
  };
}
