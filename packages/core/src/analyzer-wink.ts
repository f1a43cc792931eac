import type { WinkMethods } from 'wink-nlp';
import { defaultExport, lazyModules } from './node-require.js';

// wink-nlp and its English model are slow to load (benchmarks guide): load them on first use so
// that importing the package (config, catalog, formats) stays cheap. Where the runtime
// has no synchronous loader (workerd, a bundle), they are imported now instead.
const modules = lazyModules(import.meta.url, {
  nlp: { id: 'wink-nlp', load: () => import('wink-nlp') },
  model: { id: 'wink-eng-lite-web-model', load: () => import('wink-eng-lite-web-model') },
  // The model's packed data, read directly where a loader finds it (the stop words).
  coreJson: { id: 'wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json' },
  stem: {
    id: 'wink-eng-lite-web-model/dist/porter-stemmer.js',
    load: () => import('wink-eng-lite-web-model/dist/porter-stemmer.js'),
  },
});

type WinkNlp = typeof import('wink-nlp').default;
type Stemmer = (word: string) => string;

/** Which wink-nlp pipeline a caller needs: tokens only, or tokens with POS tags (for lemmas). */
export type WinkPipeline = 'tokens' | 'pos';

let model: import('wink-nlp').Model | undefined;

/**
 * `wink-eng-lite-web-model`, for a new wink-nlp instance. The model's `metaCER()`
 * (1.8.1) stores `JSON.stringify` of its machines back into itself, so every new
 * instance stringified the string of the one before: it roughly doubled with each
 * instance until `JSON.stringify` threw `Invalid string length` (after some twenty
 * renewals of the tagger's instance, in a long-running process). The copy handed out
 * here answers `metaCER()` with the model's first answer, every time.
 *
 * @internal
 * @throws whatever loading the model throws (the package missing)
 */
export function winkModel(): import('wink-nlp').Model {
  if (model === undefined) {
    const loaded = defaultExport(modules.get('model')) as import('wink-nlp').Model & {
      metaCER(): unknown;
    };
    let meta: unknown;
    model = Object.assign(Object.create(null), loaded, {
      metaCER: () => {
        meta ??= loaded.metaCER();
        return meta;
      },
    }) as import('wink-nlp').Model;
  }
  return model;
}

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
    const winkNLP = defaultExport(modules.get('nlp')) as WinkNlp;
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

interface CoreModelJson {
  packing: { size: number; layout: Record<string, readonly number[]> };
  lexicon: string;
  features: { lexeme: { list: readonly string[] } };
}

let lexicon: WinkLexicon | undefined;

/** The model's packed lexicon and its layout: from the JSON file, or the model's own copy. */
function coreModel(): { packed: Uint32Array; model: CoreModelJson } {
  if (modules.available('coreJson')) {
    const model = modules.get('coreJson') as CoreModelJson;
    const decoded = atob(model.lexicon);
    const bytes = new Uint8Array(decoded.length);
    for (let k = 0; k < decoded.length; k++) bytes[k] = decoded.charCodeAt(k);
    return { packed: new Uint32Array(bytes.buffer, 0, bytes.byteLength >>> 2), model };
  }
  // Without a loader: the model's `core()` decodes the same JSON, its lexicon included.
  const core = (winkModel() as unknown as { core(): CoreModelJson & { lexicon: unknown } }).core();
  return { packed: core.lexicon as unknown as Uint32Array, model: core };
}

/**
 * The stemmer, stop words and special words of `wink-eng-lite-web-model`, decoded from
 * the model once.
 *
 * @internal
 */
export function winkLexicon(): WinkLexicon {
  if (lexicon !== undefined) return lexicon;
  const stem = defaultExport(modules.get('stem')) as Stemmer;
  const { packed, model } = coreModel();
  const { size, layout } = model.packing;
  const flag = (k: number, name: string): number => {
    const [word, mask, shift] = layout[name]!;
    return (packed[word! + k * size]! & mask!) >>> shift!;
  };
  const stopWords = new Set<string>();
  const special = new Set<string>();
  const list = model.features.lexeme.list;
  for (let k = 0; k < list.length; k++) {
    const word = list[k]!;
    if (!/^[a-z]+$/.test(word)) continue;
    if (flag(k, 'isContraction') || flag(k, 'normal') || flag(k, 'isSpellingMapped')) {
      special.add(word);
    } else if (flag(k, 'isStopWord')) stopWords.add(word);
  }
  lexicon = { stem, stopWords, special };
  return lexicon;
}
