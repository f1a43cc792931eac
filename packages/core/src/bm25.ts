import { createSpecBm25Ranker } from './bm25-spec.js';
import { ToolSearchError } from './errors.js';
import type { Ranker } from './ranker.js';

/** The BM25 presets: `default`, the best measured, and `spec`, the reference behaviour. */
export type Bm25Preset = 'default' | 'spec';

/** Options of {@link createBm25Ranker}. */
export interface Bm25RankerOptions {
  /**
   * `spec` reproduces the reference ranking exactly (see the DESIGN contract);
   * `default` is the best ranker measured with `tools/eval`.
   * @defaultValue 'default'
   */
  preset?: Bm25Preset;
}

/**
 * Creates a BM25 ranker.
 *
 * `preset: 'spec'` reproduces the reference behaviour exactly: document = tool name
 * with `_ . - :` as spaces + description + top-level parameter names; tokens =
 * lowercased `[a-z0-9]+`; k1 = 1.5, b = 0.75; idf = ln(1 + (N − df + 0.5) / (df + 0.5));
 * avgdl floored at 1; when no tool scores above 0, tools whose lowercased name
 * contains the lowercased query score 0.1; ties keep catalog order. (An empty query
 * returns no hits.)
 *
 * @example
 * ```ts
 * const catalog = createCatalog(tools, { ranker: createBm25Ranker() });
 * const hits = await catalog.search('create a github issue');
 * ```
 *
 * @param options.preset - `default` or `spec` @defaultValue 'default'
 * @returns a {@link Ranker}
 * @throws {@link ToolSearchError} `invalid_argument` for an unknown preset
 */
export function createBm25Ranker(options: Bm25RankerOptions = {}): Ranker {
  const preset = options.preset ?? 'default';
  if (preset === 'spec' || preset === 'default') return createSpecBm25Ranker();
  throw new ToolSearchError(
    'invalid_argument',
    `Unknown BM25 preset '${String(preset)}'. Use 'default' or 'spec'.`,
  );
}
