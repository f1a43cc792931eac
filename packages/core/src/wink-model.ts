// `wink-eng-lite-web-model` as the analyzer and the query tagger use it, loaded for a
// fresh process's first search: the same data and the same code as the model's own
// `model.js`, assembled so that a new wink-nlp instance costs less:
// - the model's JSON is parsed once (the package's `core()` parses it, then copies it
//   with `JSON.parse(JSON.stringify(...))` for every instance); each instance gets its
//   own copy of what wink-nlp changes (the feature lists and their hashes, the packing),
//   and shares what it only reads (the packed lexicon and expansions, decoded once);
// - the hashes from a value to its index scan the list for the first lookups, then are
//   Maps behind the object wink-nlp reads (an object of 87,593 keys is slow to fill);
// - only the pipelines the analyzer runs are loaded: tokens and part-of-speech tags.
//   Named entities, negation and sentiment get empty machines (they are never run:
//   `winkInstance` asks for no such pipeline), so their JSON is never parsed;
// - the lemmatizer (and its WordNet exception lists) loads when a lemma is first read.
// The differential test (wink-model.test.ts) reads a corpus with the model's own
// `model.js` and with this one: tokens, tags, stems, lemmas and stop-word flags agree.

import { ToolSearchError } from './errors.js';
import { defaultExport, type LazyModules, lazyModules } from './node-require.js';
import { bundledWink, type WinkPart } from './wink-vendor.js';

const DIST = 'wink-eng-lite-web-model/dist';
const modules = lazyModules(import.meta.url, {
  coreJson: {
    id: `${DIST}/languages/cur/models/eng-core-web-model.json`,
    load: () =>
      import('wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json', {
        with: { type: 'json' },
      }),
  },
  sbd: {
    id: `${DIST}/load-sbd-model.js`,
    load: () => import('wink-eng-lite-web-model/dist/load-sbd-model.js'),
  },
  pos: {
    id: `${DIST}/load-pos-model.js`,
    load: () => import('wink-eng-lite-web-model/dist/load-pos-model.js'),
  },
  cer: {
    id: `${DIST}/load-cer-meta-model.js`,
    load: () => import('wink-eng-lite-web-model/dist/load-cer-meta-model.js'),
  },
  feature: {
    id: `${DIST}/feature.js`,
    load: () => import('wink-eng-lite-web-model/dist/feature.js'),
  },
  stem: {
    id: `${DIST}/porter-stemmer.js`,
    load: () => import('wink-eng-lite-web-model/dist/porter-stemmer.js'),
  },
  lemmatize: {
    id: `${DIST}/lemmatize.js`,
    load: () => import('wink-eng-lite-web-model/dist/lemmatize.js'),
  },
  readability: {
    id: `${DIST}/readability-stats.js`,
    load: () => import('wink-eng-lite-web-model/dist/readability-stats.js'),
  },
});

/** What the model's JSON holds (the parts read here). */
interface CoreModelJson {
  lexicon: string;
  xpansions: string;
  packing: { size: number; layout: Record<string, number[]>; [key: string]: unknown };
  features: Record<string, { list: string[] }>;
  pos: { hash: Record<string, number> };
}

/** A model's feature as wink-nlp's cache reads and extends it. */
interface Feature {
  list: unknown[];
  hash?: Record<string, number>;
  intrinsicSize?: number;
  index?: number;
  maxIndex?: number;
}

/** An empty automaton, in the form wink-nlp's `importJSON` reads. */
const EMPTY_MACHINE = '[100,0,{"0":{}},{},{},{}]';

/**
 * One library of the model, as a typed `ToolSearchError` when it cannot be loaded.
 *
 * @throws {@link ToolSearchError} `module_unavailable`
 */
export function loadModelPart<K extends string>(from: LazyModules<K>, key: K): unknown {
  try {
    return from.get(key);
  } catch (error) {
    throw ToolSearchError.isInstance(error)
      ? error
      : new ToolSearchError(
          'module_unavailable',
          `The English model (wink-eng-lite-web-model) could not be loaded: ${(error as Error).message}`,
          { cause: error, data: { path: 'wink-eng-lite-web-model' } },
        );
  }
}

function part(key: Parameters<typeof modules.get>[0]): unknown {
  const bundled = key in BUNDLED ? bundledWink(key as WinkPart) : undefined;
  return defaultExport(bundled ?? loadModelPart(modules, key));
}

/** The parts that `wink.cjs` holds (see wink-vendor.ts). */
const BUNDLED: Record<string, true> = {
  sbd: true,
  pos: true,
  cer: true,
  feature: true,
  stem: true,
};

/** Base64 to 32-bit words: natively where the runtime has `Buffer`, else through `atob`. */
function decodeWords(base64: string): Uint32Array {
  const host = globalThis as { Buffer?: { from(data: string, encoding: 'base64'): Uint8Array } };
  let bytes: Uint8Array;
  if (host.Buffer !== undefined) {
    const view = host.Buffer.from(base64, 'base64');
    bytes = new Uint8Array(view.byteLength);
    bytes.set(view);
  } else {
    const decoded = atob(base64);
    bytes = new Uint8Array(decoded.length);
    for (let k = 0; k < decoded.length; k++) bytes[k] = decoded.charCodeAt(k);
  }
  return new Uint32Array(bytes.buffer, 0, bytes.byteLength >>> 2);
}

/** Lookups answered by scanning the list before the Map of a hash is built. */
const SCANNED_LOOKUPS = 64;

/**
 * A value-to-index hash as wink-nlp reads and writes it (`hash[value]`). The first
 * lookups scan the list (a fresh process reads a few words: the query's), then a Map is
 * built (an object of 87,593 keys is slower to fill). A value's index is its last place
 * in the list, as when the package fills its hash in list order.
 */
function hashOf(list: readonly unknown[]): Record<string, number> {
  let map: Map<unknown, number> | undefined;
  const added = new Map<unknown, number>();
  let lookups = 0;
  const lookup = (key: string): number | undefined => {
    if (map !== undefined) return map.get(key);
    const known = added.get(key);
    if (known !== undefined) return known;
    if (++lookups > SCANNED_LOOKUPS) {
      map = new Map();
      for (let k = 0; k < list.length; k++) map.set(list[k], k);
      for (const [value, index] of added) map.set(value, index);
      return map.get(key);
    }
    const at = list.lastIndexOf(key);
    return at < 0 ? undefined : at;
  };
  return new Proxy(Object.create(null) as Record<string, number>, {
    get: (_target, key) => (typeof key === 'string' ? lookup(key) : undefined),
    set: (_target, key, value: number) => {
      if (typeof key === 'string') (map ?? added).set(key, value);
      return true;
    },
    has: (_target, key) => typeof key === 'string' && lookup(key) !== undefined,
  });
}

let json: CoreModelJson | undefined;
let shared: { lexicon: Uint32Array; xpansions: Uint32Array } | undefined;

/** The model's JSON, parsed once (read only). */
export function coreModelJson(): CoreModelJson {
  json ??= part('coreJson') as CoreModelJson;
  return json;
}

/**
 * The packed lexicon of the model, decoded once and shared (wink-nlp only reads it).
 *
 * @internal
 */
export function sharedLexicon(): { lexicon: Uint32Array; xpansions: Uint32Array } {
  if (shared === undefined) {
    const model = coreModelJson();
    shared = { lexicon: decodeWords(model.lexicon), xpansions: decodeWords(model.xpansions) };
  }
  return shared;
}

/**
 * What the package's `core()` returns (its `read-core-model.js` and `load-core-model.js`),
 * built without copying the shared read-only parts.
 */
function core(): unknown {
  const { lexicon: _lexicon, xpansions: _xpansions, features, ...rest } = coreModelJson();
  const model = JSON.parse(JSON.stringify(rest)) as Omit<CoreModelJson, 'features'> & {
    features: Record<string, Feature>;
    lexicon: Uint32Array;
    xpansions: Uint32Array;
    packing: CoreModelJson['packing'] & { efList: string[] };
  };
  Object.assign(model, sharedLexicon());
  model.features = Object.create(null) as Record<string, Feature>;
  for (const name of Object.keys(features))
    model.features[name] = { list: features[name]!.list.slice() };
  const data = model.features;
  const layout = model.packing.layout;
  model.packing.efList = [];
  for (const name of Object.keys(layout)) {
    const [, mask, shift, extracted, extractable] = layout[name]!;
    if (extracted === 0) {
      const feature = data[name]!;
      feature.hash = hashOf(feature.list);
      feature.intrinsicSize = feature.list.length;
      feature.index = feature.list.length;
      feature.maxIndex = mask! >>> shift!;
    }
    if (extractable === 1) model.packing.efList.push(name);
  }
  const lexeme = data.lexeme!;
  lexeme.hash ??= hashOf(lexeme.list);
  lexeme.intrinsicSize = lexeme.list.length;
  lexeme.index = lexeme.list.length;
  const clusters = data.posClusters!.list;
  for (let k = 0; k < clusters.length; k++) {
    clusters[k] = new Set(
      (clusters[k] as string).split('_').map((tag) => model.pos.hash[tag] || 0),
    );
  }
  return model;
}

let model: import('wink-nlp').Model | undefined;

/**
 * The English model for wink-nlp's `tokens` and `pos` pipelines (see the file's comment).
 * Its `metaCER()` answers the same machines every time: the package's own (1.8.1) stores
 * `JSON.stringify` of its machines back into itself, so every new instance stringified
 * the string of the one before, until `JSON.stringify` threw `Invalid string length`.
 *
 * @internal
 * @throws {@link ToolSearchError} `module_unavailable` when the model cannot be loaded
 */
export function winkModel(): import('wink-nlp').Model {
  if (model !== undefined) return model;
  let meta: unknown;
  const addons = Object.create(null) as Record<string, unknown>;
  addons.stem = part('stem');
  Object.defineProperty(addons, 'lemmatize', { enumerable: true, get: () => part('lemmatize') });
  Object.defineProperty(addons, 'readabilityStats', {
    enumerable: true,
    get: () => part('readability'),
  });
  addons.wordVectors = undefined;
  const empty = () => ({ machines: [EMPTY_MACHINE], setter: () => undefined });
  model = Object.assign(Object.create(null), {
    core,
    sbd: () => (part('sbd') as () => unknown)(),
    pos: () => (part('pos') as () => unknown)(),
    ner: () => ({ machines: [], transformers: [] }),
    negation: empty,
    sa: empty,
    metaCER: () => {
      meta ??= (part('cer') as () => unknown)();
      return meta;
    },
    featureFn: part('feature'),
    addons,
  }) as import('wink-nlp').Model;
  return model;
}
