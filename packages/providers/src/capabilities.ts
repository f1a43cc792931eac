import { ToolSearchError } from '@tool-search/core';

/** A platform whose own deferred loading this package drives. */
export type Provider = 'anthropic' | 'openai';

/**
 * How the deferred tools reach the model.
 * - `client`: the platform's deferred loading, with our catalog answering every search.
 * - `hosted`: the platform's own search; we decide what is deferred and what is sent at all.
 * - `bridge`: the three bridge tools of `@tool-search/bridge`, for any model.
 * - `auto`: picked by provider and model from the capability table.
 */
export type ProviderMode = 'auto' | 'client' | 'hosted' | 'bridge';

/** The mode a preparation settled on; `off` when nothing is deferred (below the threshold). */
export type PreparedMode = 'client' | 'hosted' | 'bridge' | 'off';

/** One row of the capability table: which native modes a provider's models support. */
export interface ModelCapability {
  /** The platform. */
  provider: Provider;
  /** A model id prefix (`'gpt-5.4'`) or a pattern tested against the model id. */
  model: string | RegExp;
  /**
   * The native modes these models support, in order of preference; empty means neither
   * (`auto` then picks `bridge`).
   */
  modes: readonly ('client' | 'hosted')[];
}

/**
 * The built-in capability table (December 2026). `auto` takes the first row that
 * matches the provider and model, looking at the caller's rows first, and picks the
 * first of its modes; with no matching row, or one without modes, it picks `bridge`.
 *
 * - Anthropic: Claude Opus, Sonnet and Haiku 4.5 and later support `defer_loading` with
 *   client-side search (`tool_reference` blocks) and the server search tools.
 * - OpenAI Responses: `gpt-5.4` and later support `tool_search`, hosted or client.
 */
export const DEFAULT_MODEL_CAPABILITIES: readonly ModelCapability[] = Object.freeze([
  {
    provider: 'anthropic',
    model: /^claude-(opus|sonnet|haiku)-(4-[5-9](?!\d)|[5-9](?!\d)|[1-9]\d(?!\d))/,
    modes: ['client', 'hosted'],
  },
  {
    provider: 'openai',
    model: /^gpt-(5\.([4-9]|[1-9]\d)(?!\d)|([6-9]|[1-9]\d)([.-]|$))/,
    modes: ['client', 'hosted'],
  },
]);

function matches(row: ModelCapability, provider: Provider, model: string): boolean {
  if (row.provider !== provider) return false;
  return typeof row.model === 'string' ? model.startsWith(row.model) : row.model.test(model);
}

/**
 * The mode a preparation uses: `mode` itself unless it is `auto`; for `auto`, the first
 * mode of the first capability row (the caller's, then {@link DEFAULT_MODEL_CAPABILITIES})
 * that matches the provider and model, else `bridge`.
 *
 * @example
 * ```ts
 * resolveProviderMode('openai', 'gpt-5.5');               // 'client'
 * resolveProviderMode('openai', 'gpt-4.1');               // 'bridge'
 * resolveProviderMode('anthropic', 'my-proxy-model', 'auto',
 *   [{ provider: 'anthropic', model: 'my-proxy', modes: ['hosted'] }]); // 'hosted'
 * ```
 *
 * @param provider - the platform
 * @param model - the model id; unknown means `bridge` for `auto`
 * @param mode - the requested mode @defaultValue 'auto'
 * @param capabilities - rows that take precedence over the built-in table
 * @returns `client`, `hosted` or `bridge`
 * @throws `ToolSearchError` `invalid_argument` for a mode that is not one of the four
 */
export function resolveProviderMode(
  provider: Provider,
  model: string | undefined,
  mode: ProviderMode = 'auto',
  capabilities: readonly ModelCapability[] = [],
): 'client' | 'hosted' | 'bridge' {
  if (mode === 'client' || mode === 'hosted' || mode === 'bridge') return mode;
  if (mode !== 'auto') {
    throw new ToolSearchError(
      'invalid_argument',
      `Unknown mode '${String(mode)}'. Use 'auto', 'client', 'hosted' or 'bridge'.`,
      { data: { field: 'mode' } },
    );
  }
  if (typeof model !== 'string') return 'bridge';
  const row = [...capabilities, ...DEFAULT_MODEL_CAPABILITIES].find((entry) =>
    matches(entry, provider, model),
  );
  return row?.modes[0] ?? 'bridge';
}
