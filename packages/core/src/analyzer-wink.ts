import { createRequire } from 'node:module';
import type { WinkMethods } from 'wink-nlp';

// wink-nlp and its English model take about 0.2 s to load: load them on first use so
// that importing the package (config, catalog, formats) stays cheap.
const require = createRequire(import.meta.url);

/** Which wink-nlp pipeline a caller needs: tokens only, or tokens with POS tags (for lemmas). */
export type WinkPipeline = 'tokens' | 'pos';

const instances = new Map<WinkPipeline, WinkMethods>();

/**
 * The shared wink-nlp instance over `wink-eng-lite-web-model` for a pipeline, created
 * on first use.
 *
 * @internal
 */
export function winkInstance(pipeline: WinkPipeline): WinkMethods {
  let nlp = instances.get(pipeline);
  if (nlp === undefined) {
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default;
    const model = require('wink-eng-lite-web-model') as import('wink-nlp').Model;
    nlp = winkNLP(model, pipeline === 'pos' ? ['pos'] : []);
    instances.set(pipeline, nlp);
  }
  return nlp;
}
