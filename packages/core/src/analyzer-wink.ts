import type { WinkMethods } from 'wink-nlp';
import { defaultExport, lazyModules } from './node-require.js';
import { WINK_SPECIAL_WORDS, WINK_STOP_WORDS } from './wink-lexicon-data.js';
import { coreModelJson, loadModelPart, sharedLexicon, winkModel } from './wink-model.js';
import { bundledWink } from './wink-vendor.js';

export { winkModel } from './wink-model.js';

// wink-nlp is loaded on first use, so that importing the package (config, catalog,
// formats) stays cheap; its English model is assembled in wink-model.ts. Where the
// runtime has no synchronous loader (workerd, a bundle), it is imported now instead.
const modules = lazyModules(import.meta.url, {
  nlp: { id: 'wink-nlp', load: () => import('wink-nlp') },
  stem: {
    id: 'wink-eng-lite-web-model/dist/porter-stemmer.js',
    load: () => import('wink-eng-lite-web-model/dist/porter-stemmer.js'),
  },
});

type WinkNlp = typeof import('wink-nlp').default;
type Stemmer = (word: string) => string;

/** Which wink-nlp pipeline a caller needs: tokens only, or tokens with POS tags (for lemmas). */
export type WinkPipeline = 'tokens' | 'pos';

const instances = new Map<WinkPipeline, WinkMethods>();
// wink-nlp adds every word it has not seen to its instance's lexicon, for good: the
// distinct words each instance has read, so that it is replaced before it grows much.
const wordsRead = new Map<WinkPipeline, Set<string>>();
/** How many distinct words an instance reads before it is replaced by a fresh one. */
const MAX_WORDS_READ = 10_000;

/**
 * The shared wink-nlp instance over `wink-eng-lite-web-model` for a pipeline, created
 * on first use.
 *
 * @internal
 */
export function winkInstance(pipeline: WinkPipeline): WinkMethods {
  let nlp = instances.get(pipeline);
  if (nlp === undefined) {
    const winkNLP = defaultExport(bundledWink('nlp') ?? loadModelPart(modules, 'nlp')) as WinkNlp;
    nlp = winkNLP(winkModel(), pipeline === 'pos' ? ['pos'] : []);
    instances.set(pipeline, nlp);
    wordsRead.set(pipeline, new Set());
  }
  return nlp;
}

/**
 * The wink-nlp instance of a pipeline to read `text` with, bounded: wink-nlp keeps every
 * new word it reads in its lexicon, so an instance that has read more than 10,000
 * distinct words is dropped first and a fresh one is loaded.
 *
 * @internal
 */
export function winkInstanceFor(pipeline: WinkPipeline, text: string): WinkMethods {
  if ((wordsRead.get(pipeline)?.size ?? 0) > MAX_WORDS_READ) {
    instances.delete(pipeline);
    wordsRead.delete(pipeline);
  }
  const nlp = winkInstance(pipeline);
  const seen = wordsRead.get(pipeline)!;
  for (const word of text.split(/\s+/)) if (word !== '') seen.add(word.toLowerCase());
  return nlp;
}

/**
 * The pipelines whose instance is loaded now (tests check that analysis loads one).
 *
 * @internal
 * @throws nothing
 */
export function loadedWinkPipelines(): WinkPipeline[] {
  return [...instances.keys()];
}

/** What the analyzer reads from the model itself, without reading words into wink-nlp. */
export interface WinkLexicon {
  /** The model's Porter2 stemmer: the function behind wink-nlp's `its.stem`. */
  readonly stem: (word: string) => string;
  /** The lowercase words the model flags as stop words. */
  readonly stopWords: ReadonlySet<string>;
  /**
   * Lowercase words that wink-nlp's tokens do not map one to one: contractions
   * (`cannot`), words with another normal form (`abt`) or spelling: they go through a
   * wink-nlp document (they are in the model's lexicon, so it does not grow).
   */
  readonly special: ReadonlySet<string>;
}

let lexicon: WinkLexicon | undefined;

/**
 * The stemmer, stop words and special words of `wink-eng-lite-web-model`: the word
 * lists were read from the model's lexicon at build time (`wink-lexicon-data.ts`), so
 * that the analyzer needs neither the model nor wink-nlp for them.
 *
 * @internal
 * @throws {@link ToolSearchError} `module_unavailable` when the stemmer cannot be loaded
 */
export function winkLexicon(): WinkLexicon {
  if (lexicon !== undefined) return lexicon;
  const stem = defaultExport(bundledWink('stem') ?? loadModelPart(modules, 'stem')) as Stemmer;
  lexicon = {
    stem,
    stopWords: new Set(WINK_STOP_WORDS.split(' ')),
    special: new Set(WINK_SPECIAL_WORDS.split(' ')),
  };
  return lexicon;
}

/**
 * The stop words and special words read from the model's packed lexicon, as
 * `wink-lexicon-data.ts` was generated (by `tools/scripts/src/build-wink-lexicon.ts`;
 * a test checks that the two agree).
 *
 * @internal
 * @throws {@link ToolSearchError} `module_unavailable` when the model cannot be loaded
 */
export function deriveWinkLexicon(): { stopWords: string[]; special: string[] } {
  const packed = sharedLexicon().lexicon;
  const model = coreModelJson();
  const { size, layout } = model.packing;
  const flag = (k: number, name: string): number => {
    const [word, mask, shift] = layout[name]!;
    return (packed[word! + k * size]! & mask!) >>> shift!;
  };
  const stopWords: string[] = [];
  const special: string[] = [];
  const list = model.features.lexeme!.list;
  for (let k = 0; k < list.length; k++) {
    const word = list[k]!;
    if (!/^[a-z]+$/.test(word)) continue;
    if (flag(k, 'isContraction') || flag(k, 'normal') || flag(k, 'isSpellingMapped')) {
      special.push(word);
    } else if (flag(k, 'isStopWord')) stopWords.push(word);
  }
  return { stopWords: [...new Set(stopWords)].sort(), special: [...new Set(special)].sort() };
}
