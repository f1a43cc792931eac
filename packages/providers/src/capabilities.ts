import { ToolSearchError } from '@tool-search/core';

/** A platform whose own deferred loading this package drives. */
export type Provider = 'anthropic' | 'openai' | 'gemini';

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
 * - Anthropic: Claude Opus, Sonnet and Haiku 4.5 and later (the 5.x families, 5.5
 *   among them) and Claude Fable and Mythos 5.x support `defer_loading` with client-side
 *   search (`tool_reference` blocks) and the server search tools.
 * - OpenAI Responses: `gpt-5.4` and later support `tool_search`, hosted or client.
 * - Gemini, Interactions API: `gemini-3.6` and later (Gemini 4 among them) support tool
 *   retrieval (`tool_search` and `defer_loading`, in preview since 2026-11-19), client
 *   or server. `generateContent` has no deferral: there the bridge serves every model.
 */
export const DEFAULT_MODEL_CAPABILITIES: readonly ModelCapability[] = Object.freeze([
  {
    provider: 'anthropic',
    model: /^claude-(opus|sonnet|haiku)-(4-[5-9](?!\d)|[5-9](?!\d)|[1-9]\d(?!\d))/,
    modes: ['client', 'hosted'],
  },
  {
    provider: 'anthropic',
    model: /^claude-(fable|mythos)-([5-9](?!\d)|[1-9]\d(?!\d))/,
    modes: ['client', 'hosted'],
  },
  {
    provider: 'openai',
    model: /^gpt-(5\.([4-9]|[1-9]\d)(?!\d)|([6-9]|[1-9]\d)([.-]|$))/,
    modes: ['client', 'hosted'],
  },
  {
    provider: 'gemini',
    model: /^gemini-(3\.([6-9]|[1-9]\d)(?!\d)|([4-9]|[1-9]\d)([.-]|$))/,
    modes: ['client', 'hosted'],
  },
]);

/**
 * The canonical form of a model id as the platforms' own APIs spell it, so that the
 * capability table recognises the same model behind a cloud or a router: a router's
 * `provider/` prefix (`anthropic/claude-sonnet-4.5`, `openai/gpt-5.4`, an ARN's
 * `inference-profile/...`), Bedrock's region and vendor prefix and version suffix
 * (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`), Vertex's `@date`
 * (`claude-sonnet-4-5@20250929`), and dotted Claude versions (`claude-sonnet-4.5`) are
 * taken off or rewritten; case is folded. Dated suffixes stay: the table matches by prefix.
 *
 * @example
 * ```ts
 * canonicalModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0'); // 'claude-sonnet-4-5-20250929'
 * canonicalModelId('anthropic/claude-sonnet-4.5');                  // 'claude-sonnet-4-5'
 * canonicalModelId('claude-sonnet-4-5@20250929');                   // 'claude-sonnet-4-5'
 * ```
 *
 * @param model - a model id in any of those forms
 * @returns the id the capability table is matched against
 * @throws nothing
 */
export function canonicalModelId(model: string): string {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.replace(/@.*$/, '');
  id = id.replace(/^(?:[a-z]{2,6}\.)?(?:anthropic|openai|google)\./, '');
  id = id.replace(/-v\d+(?::\d+)?$/, '');
  if (id.startsWith('claude-')) id = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return id;
}

// Model families a provider serves: a model of one that no row gives a native mode to
// is known to lack native tool search, which the reason says.
const FAMILIES: Record<Provider, RegExp> = {
  anthropic: /^claude-/,
  openai: /^(gpt-|o\d|chatgpt-|codex-)/,
  gemini: /^gemini-/,
};

function matches(row: ModelCapability, provider: Provider, ids: readonly string[]): boolean {
  if (row.provider !== provider) return false;
  return ids.some((id) =>
    typeof row.model === 'string' ? id.startsWith(row.model) : row.model.test(id),
  );
}

/** Which mode a preparation takes and why, before the activation decision is applied. */
export interface ModeChoice {
  /** The mode. */
  mode: 'client' | 'hosted' | 'bridge';
  /** Whether `auto` found no native mode for the model (it then falls back, loudly). */
  fallback: boolean;
  /** Why, in a sentence. */
  reason: string;
}

function invalidMode(mode: unknown): ToolSearchError {
  return new ToolSearchError(
    'invalid_argument',
    `Unknown mode '${String(mode)}'. Use 'auto', 'client', 'hosted' or 'bridge'.`,
    { data: { field: 'mode' } },
  );
}

/**
 * The mode a preparation uses and why: {@link resolveProviderMode} with its reason.
 *
 * @param provider - the platform
 * @param model - the model id, in any form {@link canonicalModelId} reads
 * @param mode - the requested mode @defaultValue 'auto'
 * @param capabilities - rows that take precedence over the built-in table
 * @returns the mode, whether `auto` fell back, and the reason
 * @throws `ToolSearchError` `invalid_argument` for a mode that is not one of the four
 */
export function chooseProviderMode(
  provider: Provider,
  model: string | undefined,
  mode: ProviderMode = 'auto',
  capabilities: readonly ModelCapability[] = [],
): ModeChoice {
  if (mode === 'client' || mode === 'hosted' || mode === 'bridge') {
    return { mode, fallback: false, reason: `mode '${mode}' was asked for` };
  }
  if (mode !== 'auto') throw invalidMode(mode);
  if (typeof model !== 'string' || model.trim() === '') {
    return {
      mode: 'bridge',
      fallback: true,
      reason: `no model was given, so 'auto' cannot tell whether it supports native tool search`,
    };
  }
  const canonical = canonicalModelId(model);
  const ids = canonical === model ? [model] : [model, canonical];
  const row = [...capabilities, ...DEFAULT_MODEL_CAPABILITIES].find((entry) =>
    matches(entry, provider, ids),
  );
  const native = row?.modes[0];
  if (native !== undefined) {
    return { mode: native, fallback: false, reason: `'${model}' supports native tool search` };
  }
  const known = row !== undefined || FAMILIES[provider].test(canonical);
  return {
    mode: 'bridge',
    fallback: true,
    reason: known
      ? `'${model}' has no native tool search on ${provider}`
      : `'${model}' is not a ${provider} model the capability table knows`,
  };
}

/**
 * The mode a preparation uses: `mode` itself unless it is `auto`; for `auto`, the first
 * mode of the first capability row (the caller's, then {@link DEFAULT_MODEL_CAPABILITIES})
 * that matches the provider and the model id, as given or in its canonical form
 * ({@link canonicalModelId}: Bedrock, Vertex and router ids of the same model match), else
 * `bridge`. {@link chooseProviderMode} also says why.
 *
 * @example
 * ```ts
 * resolveProviderMode('openai', 'gpt-5.5');               // 'client'
 * resolveProviderMode('openai', 'gpt-4.1');               // 'bridge'
 * resolveProviderMode('anthropic', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'); // 'client'
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
  return chooseProviderMode(provider, model, mode, capabilities).mode;
}
