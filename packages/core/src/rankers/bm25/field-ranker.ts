import { type Analyzer, type AnalyzerOptions, createAnalyzer } from '../../analyzer.js';
import { TOOL_FIELDS, type ToolField, toolFieldTexts } from '../../analyzer-fields.js';
import { winkInstance, winkInstanceFor } from '../../analyzer-wink.js';
import { sharedRelatedWords } from '../../related-words.js';
import type { ToolDefinition } from '../../types.js';
import type { RankedTool, Ranker, RankerIndex } from '../ranker.js';
import { SlabWriter, VectorMemo, type VectorSlab } from './vector-slab.js';

const FIELD_COUNT = TOOL_FIELDS.length;
const FREQUENCY_BITS = 6;
const MAX_FREQUENCY = (1 << FREQUENCY_BITS) - 1;

/** The weight and the length normalisation of one field in BM25F. */
export interface Bm25FieldParameters {
  /** How much one occurrence in this field counts against one in the description. */
  weight: number;
  /** Length normalisation in [0, 1]: 0 ignores the field's length, 1 normalises fully. */
  b: number;
}

/** The tuning of the field-weighted (BM25F) ranker of the default preset. */
export interface Bm25Tuning {
  /** Text analysis of documents and queries. */
  analyzer: AnalyzerOptions;
  /** Per-field weight and length normalisation. */
  fields: Record<ToolField, Bm25FieldParameters>;
  /** Term-frequency saturation. */
  k1: number;
  /**
   * Adds this share of the best score in a tool's group (its toolset, else the
   * `server__` prefix of its name) to every tool of the best groups, so that the
   * sibling tools of a strong match surface too. 0 turns it off.
   */
  groupBoost: number;
  /** How many of the best-scoring groups get the boost. */
  groupTop: number;
  /**
   * A query that is exactly a tool's name (any case or separators) ranks that tool
   * first; so does a tool whose name the query quotes as an identifier (`use the
   * 'sort_list' function`, `github.create_issue`, `getWeather`: a word with `_`, `.`,
   * `-` or a lower-to-upper case step), after the exact match, in the order quoted.
   */
  exactNameFirst: boolean;
  /**
   * Query expansion: each query word also looks for its synonyms among the words tools
   * use (`save` → `write`, `email` → `mail`, `picture` → `image`, ...; see
   * {@link DEFAULT_QUERY_SYNONYMS}), and a file path or a URL in the query also looks for
   * `file` or `url`. Added terms weigh `expansionWeight` of a query word. `false` turns
   * it off; an object replaces the synonym table.
   */
  synonyms: boolean | Readonly<Record<string, readonly string[]>>;
  /** The weight of a term added by query expansion, against 1 for a query word. */
  expansionWeight: number;
  /**
   * Related-word expansion of the query words the catalog never uses: such a word
   * looks for its WordNet relatives instead (synonyms, broader and a few narrower words,
   * derived forms: `apartment` → `housing`, `rental` → `renting`, `lease`), each at
   * `relatedWordsWeight`. Words the catalog uses are never expanded, so this only adds
   * matches where there were none. Needs the `'stem'` analyzer (the table holds stems);
   * the table (about 2 MB, shipped in the package) is read on the first query that
   * needs it. `false` turns it off.
   */
  relatedWords: boolean;
  /** The weight of a related word, against 1 for a query word. */
  relatedWordsWeight: number;
  /**
   * Query-term weights by part of speech, from the wink-nlp tagger run over the query
   * (once per distinct query text, cached): a term takes the weight of the word it came
   * from (`VERB`, `ADJ`, `ADV`, `NUM`, ... as wink-nlp tags them; an untagged part of
   * speech weighs 1). The default weighs the nouns of a request over its verbs,
   * adjectives, adverbs and numbers. `false` turns it off.
   */
  partOfSpeechWeights: false | Readonly<Record<string, number>>;
  /**
   * Proximity: two adjacent query terms that are also adjacent, in the same order, in
   * the first sentence of a tool's description (after stemming and stop words: the query
   * `label issues` and the sentence `Labels an issue.` share `label issu`) add the
   * pair's idf × this weight to the tool's score. 0 turns it off.
   */
  proximityWeight: number;
}

/**
 * The synonyms of the default query expansion: words of requests mapped to the words
 * tool descriptions use for the same action or object. Kept short and general on purpose.
 */
export const DEFAULT_QUERY_SYNONYMS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  save: ['write', 'store'],
  store: ['save', 'write'],
  write: ['save'],
  find: ['search', 'lookup'],
  search: ['find', 'lookup', 'query'],
  lookup: ['search', 'find'],
  remove: ['delete'],
  delete: ['remove'],
  fetch: ['get', 'retrieve', 'download'],
  retrieve: ['get', 'fetch'],
  download: ['fetch', 'get'],
  show: ['get', 'display', 'view'],
  display: ['show', 'view'],
  view: ['show', 'read'],
  picture: ['image', 'photo'],
  photo: ['image', 'picture'],
  image: ['picture', 'photo'],
  modify: ['update', 'edit'],
  edit: ['update', 'modify'],
  change: ['update', 'modify'],
  update: ['edit', 'modify'],
  make: ['create'],
  build: ['create'],
  generate: ['create'],
  create: ['make', 'generate'],
  folder: ['directory'],
  directory: ['folder'],
  email: ['mail', 'gmail'],
  mail: ['email'],
  gmail: ['email'],
  price: ['cost', 'quote'],
  cost: ['price'],
  run: ['execute'],
  execute: ['run'],
  start: ['launch', 'run'],
  launch: ['start', 'open'],
  open: ['launch'],
  list: ['show'],
  text: ['message'],
  message: ['text'],
  chat: ['message'],
  website: ['web', 'site', 'url'],
  site: ['website', 'web'],
  page: ['web'],
  web: ['website', 'page'],
});

/**
 * The part-of-speech weights of the default preset: nouns and proper nouns weigh 1,
 * verbs and adjectives 0.7, adverbs and numbers 0.5.
 */
export const DEFAULT_PART_OF_SPEECH_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  VERB: 0.7,
  ADJ: 0.7,
  ADV: 0.5,
  NUM: 0.5,
});

/**
 * The tuning of the default preset: the best measured with `tools/eval` (see its README
 * for what each part is worth).
 */
export const DEFAULT_BM25_TUNING: Readonly<Bm25Tuning> = Object.freeze({
  analyzer: Object.freeze({ normalize: 'stem', stopWords: true, splitIdentifiers: true }),
  fields: Object.freeze({
    name: Object.freeze({ weight: 6, b: 0.5 }),
    description: Object.freeze({ weight: 1, b: 0.3 }),
    parameterNames: Object.freeze({ weight: 1.5, b: 0 }),
    parameterDescriptions: Object.freeze({ weight: 0.8, b: 0.3 }),
    label: Object.freeze({ weight: 0.5, b: 0 }),
  }),
  k1: 1.6,
  groupBoost: 0.3,
  groupTop: 5,
  exactNameFirst: true,
  synonyms: true,
  expansionWeight: 0.5,
  relatedWords: true,
  relatedWordsWeight: 0.3,
  partOfSpeechWeights: DEFAULT_PART_OF_SPEECH_WEIGHTS,
  proximityWeight: 0.5,
}) as Readonly<Bm25Tuning>;

/** A partial {@link Bm25Tuning}: fields may be given one by one. */
export type Bm25TuningOverrides = Partial<Omit<Bm25Tuning, 'fields'>> & {
  fields?: Partial<Record<ToolField, Partial<Bm25FieldParameters>>>;
};

/** Fills a partial tuning in from {@link DEFAULT_BM25_TUNING}. */
function resolveBm25Tuning(overrides: Bm25TuningOverrides = {}): Bm25Tuning {
  const fields = {} as Record<ToolField, Bm25FieldParameters>;
  for (const field of TOOL_FIELDS) {
    fields[field] = { ...DEFAULT_BM25_TUNING.fields[field], ...overrides.fields?.[field] };
  }
  return {
    ...DEFAULT_BM25_TUNING,
    ...overrides,
    analyzer: { ...DEFAULT_BM25_TUNING.analyzer, ...overrides.analyzer },
    fields,
  };
}

// ---------------------------------------------------------------------------------
// Terms are interned to integers once, process-wide, so that an index over cached
// per-tool vectors is built from integer arrays alone. The dictionary is bounded: past
// its limit it starts over, and vectors of an older generation are recomputed.

const MAX_DICTIONARY_SIZE = 1 << 20;
let dictionary = new Map<string, number>();
let generation = 0;

function internTerm(term: string): number {
  let id = dictionary.get(term);
  if (id === undefined) {
    id = dictionary.size;
    dictionary.set(term, id);
  }
  return id;
}

/**
 * One tool's analysed fields, packed in bytes in a {@link VectorSlab} (unsigned
 * integers as varints: 7 bits a byte, low first):
 *
 * - the term ids of the description's first sentence in order (for proximity): their
 *   count, then each id;
 * - the count of distinct terms, the analysed length of each field (at most 65,535),
 *   and the hashes of the names a query may give exactly (4 bytes each, little-endian);
 * - the distinct term ids in ascending order, each as the difference from the one
 *   before, followed by its frequency in each field (6 bits a field, at most 63): one
 *   byte for the usual single field with a frequency up to 31 (see {@link FREQUENCY_CODES}),
 *   else 255 and the packed frequencies as a varint.
 */
const FREQUENCY_ESCAPE = 255;
const SINGLE_FIELD_FREQUENCY = 31;

/** The packed frequencies of each one-byte code: `field * 31 + frequency - 1`. */
const FREQUENCY_CODES = (() => {
  const codes = new Uint32Array(256);
  for (let field = 0; field < FIELD_COUNT; field++) {
    for (let frequency = 1; frequency <= SINGLE_FIELD_FREQUENCY; frequency++) {
      codes[field * SINGLE_FIELD_FREQUENCY + frequency - 1] = frequency << (field * FREQUENCY_BITS);
    }
  }
  return codes;
})();

// The read position of varintAt (module scope, so that the small reader inlines).
let readAt = 0;

/** The varint at `readAt`, which moves past it. */
function varintAt(bytes: Uint8Array): number {
  let byte = bytes[readAt++]!;
  if (byte < 0x80) return byte;
  let value = byte & 0x7f;
  let shift = 7;
  do {
    byte = bytes[readAt++]!;
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte >= 0x80);
  return value >>> 0;
}

/** The 4-byte little-endian integer at `readAt`, which moves past it. */
function uint32At(bytes: Uint8Array): number {
  const at = readAt;
  readAt = at + 4;
  return (
    (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
  );
}

/** Moves `readAt` past the first sentence of the vector at it. */
function skipSentence(bytes: Uint8Array): void {
  for (let count = varintAt(bytes); count > 0; count--) while (bytes[readAt++]! >= 0x80);
}

/** FNV-1a over a string's UTF-16 code units, never 0 (0 stands for no name). */
function nameHash(name: string): number {
  if (name === '') return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0 || 1;
}

// Scratch space of buildVector: the slot of each term id in the vector being built,
// valid when its stamp is the current one (saves a Map per tool).
let slotOf = new Int32Array(1024);
let slotStamp = new Uint32Array(1024);
let stamp = 0;
// The term ids of the vector being written, sorted.
let sortedIds = new Uint32Array(256);

const FIRST_SENTENCE_END = /[.!?\u3002\uff01\uff1f](?=\s|$)|\n/;
const MAX_SENTENCE_LENGTH = 400;

/** The first sentence of a description (up to `. `, `! `, `? `, a line break or 400 characters). */
function firstSentence(description: string): string {
  const text =
    description.length > MAX_SENTENCE_LENGTH
      ? description.slice(0, MAX_SENTENCE_LENGTH)
      : description;
  const end = text.search(FIRST_SENTENCE_END);
  return end < 0 ? text : text.slice(0, end);
}

/** Analyses a tool and writes its vector as the next of a slab. */
function buildVector(tool: ToolDefinition, analyzer: Analyzer, writer: SlabWriter): void {
  const texts = toolFieldTexts(tool);
  const ids: number[] = [];
  const packed: number[] = [];
  const lengths: number[] = [];
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    slotStamp.fill(0);
    stamp = 1;
  }
  const add = (id: number, shift: number): void => {
    if (id >= slotOf.length) {
      const size = Math.max(id + 1, slotOf.length * 2);
      const grownSlots = new Int32Array(size);
      grownSlots.set(slotOf);
      slotOf = grownSlots;
      const grownStamps = new Uint32Array(size);
      grownStamps.set(slotStamp);
      slotStamp = grownStamps;
    }
    let slot: number;
    if (slotStamp[id] === stamp) slot = slotOf[id]!;
    else {
      slot = ids.length;
      slotStamp[id] = stamp;
      slotOf[id] = slot;
      ids.push(id);
      packed.push(0);
    }
    const frequency = (packed[slot]! >>> shift) & MAX_FREQUENCY;
    if (frequency < MAX_FREQUENCY) packed[slot]! += 1 << shift;
  };
  for (let field = 0; field < FIELD_COUNT; field++) {
    const terms = analyzer.analyze(texts[TOOL_FIELDS[field]!]);
    lengths.push(Math.min(terms.length, 0xffff));
    const shift = field * FREQUENCY_BITS;
    for (const term of terms) add(internTerm(term), shift);
  }
  // The first sentence's terms are among the description's: only their order is new.
  const sentence = analyzer.analyze(firstSentence(texts.description));
  const count = ids.length;
  writer.ensure(5 * (1 + sentence.length) + 5 * (1 + FIELD_COUNT) + 8 + 11 * count);
  writer.varint(sentence.length);
  for (const term of sentence) writer.varint(internTerm(term));
  writer.varint(count);
  for (const length of lengths) writer.varint(length);
  const name = typeof tool.name === 'string' ? tool.name : '';
  writer.uint32(nameHash(normalizeName(name)));
  const bare = name.lastIndexOf('__');
  writer.uint32(bare >= 0 ? nameHash(normalizeName(name.slice(bare + 2))) : 0);
  if (count > sortedIds.length) sortedIds = new Uint32Array(Math.max(count, sortedIds.length * 2));
  for (let slot = 0; slot < count; slot++) sortedIds[slot] = ids[slot]!;
  const sorted = sortedIds.subarray(0, count).sort();
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const id = sorted[i]!;
    writer.varint(id - previous);
    previous = id;
    const frequencies = packed[slotOf[id]!]!;
    const code = frequencyCode(frequencies);
    writer.byte(code);
    if (code === FREQUENCY_ESCAPE) writer.varint(frequencies);
  }
  writer.end();
}

/** The one-byte code of a term's packed field frequencies, or {@link FREQUENCY_ESCAPE}. */
function frequencyCode(frequencies: number): number {
  for (let field = 0; field < FIELD_COUNT; field++) {
    const shift = field * FREQUENCY_BITS;
    const frequency = (frequencies >>> shift) & MAX_FREQUENCY;
    if (frequency === 0) continue;
    return frequencies === frequency << shift && frequency <= SINGLE_FIELD_FREQUENCY
      ? field * SINGLE_FIELD_FREQUENCY + frequency - 1
      : FREQUENCY_ESCAPE;
  }
  return FREQUENCY_ESCAPE;
}

/** Postings in compressed-row form over the global term ids, plus what queries need. */
interface FieldIndex {
  readonly n: number;
  readonly names: readonly string[];
  /** `offsets[id]..offsets[id + 1]` are the postings of term `id`. */
  readonly offsets: Uint32Array;
  readonly docs: Uint32Array;
  /** The saturated BM25F weight of each posting (the idf is applied at query time). */
  readonly weights: Float32Array;
  /** Each tool's name hash and bare-name hash (0: none), two words a tool. */
  readonly nameHashes: Uint32Array;
  /** Each tool's group, or -1; and each group's tools. */
  readonly groupOf: Int32Array;
  readonly groupMembers: readonly (readonly number[])[];
  /** Each tool's vector (proximity reads the order of its first sentence). */
  readonly slab: VectorSlab;
}

function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_.\-:/]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function groupKey(tool: ToolDefinition): string | undefined {
  if (typeof tool.toolset === 'string' && tool.toolset !== '') return tool.toolset;
  const split = tool.name.indexOf('__');
  return split > 0 ? tool.name.slice(0, split) : undefined;
}

function buildIndex(
  tools: readonly ToolDefinition[],
  slab: VectorSlab,
  tuning: Bm25Tuning,
): FieldIndex {
  const n = tools.length;
  const { bytes, starts } = slab;
  const codes = FREQUENCY_CODES;
  const weights = TOOL_FIELDS.map((field) => tuning.fields[field].weight);
  const bs = TOOL_FIELDS.map((field) => tuning.fields[field].b);
  const averages = new Float64Array(FIELD_COUNT);
  let postingCount = 0;
  // The name hashes of the tools side by side, so that an exact-name lookup reads one array.
  const nameHashes = new Uint32Array(n * 2);
  // The headers first: field lengths (for the averages), name hashes, where terms start.
  const lengths = new Uint16Array(n * FIELD_COUNT);
  const termsAt = new Uint32Array(n);
  const termCounts = new Uint32Array(n);
  for (let doc = 0; doc < n; doc++) {
    readAt = starts[doc]!;
    skipSentence(bytes);
    const count = varintAt(bytes);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = varintAt(bytes);
      lengths[doc * FIELD_COUNT + f] = length;
      averages[f]! += length;
    }
    nameHashes[doc * 2] = uint32At(bytes);
    nameHashes[doc * 2 + 1] = uint32At(bytes);
    termsAt[doc] = readAt;
    termCounts[doc] = count;
    postingCount += count;
  }
  for (let f = 0; f < FIELD_COUNT; f++) averages[f] = Math.max(1, averages[f]! / Math.max(1, n));

  // Then every term once, in catalog order: its posting's weight goes to temporary
  // arrays, counted per term; a term seen only in zero-weight fields has no posting.
  // Every id is below the dictionary's size (the slab is of its generation).
  const counts = new Uint32Array(dictionary.size + 1);
  const termOf = new Uint32Array(postingCount);
  const docOf = new Uint32Array(postingCount);
  const weightOf = new Float32Array(postingCount);
  const k1 = tuning.k1;
  const norms = new Float64Array(FIELD_COUNT);
  let vocabulary = 0;
  let emitted = 0;
  for (let doc = 0; doc < n; doc++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = lengths[doc * FIELD_COUNT + f]!;
      norms[f] = weights[f]! / (1 - bs[f]! + (bs[f]! * length) / averages[f]!);
    }
    // Varints read inline: one byte in the usual case.
    let read = termsAt[doc]!;
    const count = termCounts[doc]!;
    let id = 0;
    for (let t = 0; t < count; t++) {
      let delta = bytes[read++]!;
      if (delta >= 0x80) {
        readAt = read - 1;
        delta = varintAt(bytes);
        read = readAt;
      }
      id += delta;
      const code = bytes[read++]!;
      let frequencies = codes[code]!;
      if (code === FREQUENCY_ESCAPE) {
        readAt = read;
        frequencies = varintAt(bytes);
        read = readAt;
      }
      let tf = 0;
      // Fields in order until no frequency is left (most terms sit in the first few).
      for (let f = 0, bits = frequencies; bits !== 0; f++, bits >>>= FREQUENCY_BITS) {
        tf += (bits & MAX_FREQUENCY) * norms[f]!;
      }
      if (!(tf > 0)) continue;
      termOf[emitted] = id;
      docOf[emitted] = doc;
      weightOf[emitted] = (tf * (k1 + 1)) / (k1 + tf);
      counts[id + 1]!++;
      emitted++;
    }
    if (count > 0 && id >= vocabulary) vocabulary = id + 1;
  }

  // Postings in compressed-row form: each term's postings in catalog order.
  const offsets = counts.slice(0, vocabulary + 1);
  for (let id = 0; id < vocabulary; id++) offsets[id + 1]! += offsets[id]!;
  const cursor = offsets.slice(0, vocabulary);
  const docs = new Uint32Array(emitted);
  const postingWeights = new Float32Array(emitted);
  for (let i = 0; i < emitted; i++) {
    const at = cursor[termOf[i]!]!++;
    docs[at] = docOf[i]!;
    postingWeights[at] = weightOf[i]!;
  }

  const groupOf = new Int32Array(n).fill(-1);
  const groupMembers: number[][] = [];
  const groupIds = new Map<string, number>();
  for (let doc = 0; doc < n; doc++) {
    const key = groupKey(tools[doc]!);
    if (key === undefined) continue;
    let group = groupIds.get(key);
    if (group === undefined) {
      group = groupMembers.length;
      groupIds.set(key, group);
      groupMembers.push([]);
    }
    groupOf[doc] = group;
    groupMembers[group]!.push(doc);
  }
  const names = tools.map((tool) => tool.name);
  return {
    n,
    names,
    offsets,
    docs,
    weights: postingWeights,
    nameHashes,
    groupOf,
    groupMembers,
    slab,
  };
}

/**
 * The tools a query names exactly (any case or separators; the bare name of
 * `server__tool` too), in catalog order: a scan of the name hashes of the vectors, each
 * hit checked against the name itself.
 */
function exactMatches(index: FieldIndex, query: string): number[] {
  const wanted = normalizeName(query);
  const hash = nameHash(wanted);
  if (hash === 0) return [];
  const { nameHashes, names, n } = index;
  const found: number[] = [];
  for (let doc = 0; doc < n; doc++) {
    if (nameHashes[doc * 2] !== hash && nameHashes[doc * 2 + 1] !== hash) continue;
    const name = names[doc]!;
    const bare = name.lastIndexOf('__');
    if (
      normalizeName(name) === wanted ||
      (bare >= 0 && normalizeName(name.slice(bare + 2)) === wanted)
    ) {
      found.push(doc);
    }
  }
  return found;
}

/** How many identifier-like words of a query are looked up as tool names. */
const MAX_QUOTED_IDENTIFIERS = 8;
const IDENTIFIER_WORD = /[A-Za-z0-9][\w.:/-]{1,126}[A-Za-z0-9]/g;
const IDENTIFIER_SHAPE = /[_.:/-]|[a-z][A-Z]/;

/**
 * The words of a query shaped like identifiers (`sort_list`, `github.create_issue`,
 * `getWeather`), at most {@link MAX_QUOTED_IDENTIFIERS}, from its first 4,096
 * characters; URLs and paths are left out.
 */
function quotedIdentifiers(query: string): string[] {
  const found: string[] = [];
  const text = query.length > MAX_QUERY_SCAN ? query.slice(0, MAX_QUERY_SCAN) : query;
  for (const match of text.matchAll(IDENTIFIER_WORD)) {
    const word = match[0];
    if (!IDENTIFIER_SHAPE.test(word) || word.includes('//') || word.startsWith('/')) continue;
    found.push(word);
    if (found.length === MAX_QUOTED_IDENTIFIERS) break;
  }
  return found;
}

/** How often the term ids a, b follow each other in a tool's first sentence (at most 255). */
function adjacentCount(slab: VectorSlab, doc: number, a: number, b: number): number {
  const bytes = slab.bytes;
  readAt = slab.starts[doc]!;
  let count = 0;
  let previous = -1;
  for (let left = varintAt(bytes); left > 0; left--) {
    const id = varintAt(bytes);
    if (id === b && previous === a && count < 255) count++;
    previous = id;
  }
  return count;
}

function idfOf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The `limit` best of the candidates, best first; equal scores keep catalog order. */
function topK(
  scores: Float64Array,
  candidates: Uint32Array,
  count: number,
  limit: number,
): number[] {
  const best: number[] = [];
  for (let i = 0; i < count; i++) {
    const doc = candidates[i]!;
    const score = scores[doc]!;
    if (!(score > 0)) continue;
    if (best.length === limit) {
      const last = best[limit - 1]!;
      const lastScore = scores[last]!;
      if (score < lastScore || (score === lastScore && doc > last)) continue;
      best.pop();
    }
    let at = best.length;
    while (at > 0) {
      const previous = best[at - 1]!;
      const previousScore = scores[previous]!;
      if (previousScore > score || (previousScore === score && previous < doc)) break;
      at--;
    }
    best.splice(at, 0, doc);
  }
  return best;
}

/** The substring fallback's score, as in the spec preset: below any real match. */
const FALLBACK_SCORE = 0.1;

/** The analysed synonym table and kind words of a ranker's query expansion. */
interface Expansions {
  synonyms: Map<string, string[]>;
  file: string[];
  url: string[];
}

const expansionCache = new WeakMap<Bm25Tuning, Expansions | undefined>();

function expansionsFor(analyzer: Analyzer, tuning: Bm25Tuning): Expansions | undefined {
  if (expansionCache.has(tuning)) return expansionCache.get(tuning);
  let expansions: Expansions | undefined;
  if (tuning.synonyms !== false && tuning.expansionWeight > 0) {
    const table = tuning.synonyms === true ? DEFAULT_QUERY_SYNONYMS : tuning.synonyms;
    const synonyms = new Map<string, string[]>();
    for (const [word, others] of Object.entries(table)) {
      const [key] = analyzer.analyze(word);
      if (key === undefined) continue;
      const list = synonyms.get(key) ?? [];
      for (const other of others) for (const term of analyzer.analyze(other)) list.push(term);
      synonyms.set(key, list);
    }
    expansions = { synonyms, file: analyzer.analyze('file'), url: analyzer.analyze('url') };
  }
  expansionCache.set(tuning, expansions);
  return expansions;
}

const FILE_EXTENSION =
  /\.(?:md|txt|csv|tsv|xlsx?|docx?|pdf|json|ya?ml|xml|png|jpe?g|gif|svg|pptx?|py|js|ts|html?|log|zip|bib)$/i;
const PATH_START = /^(?:~|\.{1,2})?\/[^/\s]+\/|^[A-Za-z]:\\/;
const URL_START = /^(?:https?:\/\/|www\.)/i;

/** The kind words of the file paths and URLs a query mentions (a whitespace scan, linear). */
function mentionedKinds(query: string, expansions: Expansions): string[] {
  const kinds: string[] = [];
  let file = false;
  let url = false;
  for (const word of query.slice(0, MAX_QUERY_SCAN).split(/\s+/)) {
    if (word.length < 3 || word.length > 512) continue;
    const bare = word.replace(/[.,;:!?)\]'"`]+$/, '');
    if (!url && URL_START.test(bare)) url = true;
    else if (!file && (PATH_START.test(bare) || FILE_EXTENSION.test(bare))) file = true;
  }
  if (file) kinds.push(...expansions.file);
  if (url) kinds.push(...expansions.url);
  return kinds;
}

const MAX_QUERY_SCAN = 4_096;
/** How many distinct query texts a ranker remembers the part-of-speech weights of. */
const POS_CACHE_SIZE = 256;
/** The tagger reads this much of a query; terms past it weigh 1. */
const MAX_TAGGED_LENGTH = 1_024;
// wink-nlp's tokenizer slows down on long unbroken runs (a 4,000-character blob takes
// tens of ms): runs this long are not words, and are left out of tagging.
const UNTAGGED_RUN = /\S{33,}/g;

/**
 * The weight of each analysed term of a query by the part of speech of the word it came
 * from (wink-nlp's tagger; the largest weight when a term comes from several words).
 * Only the first 1,024 characters are tagged, without runs of more than 32 non-space
 * characters (blobs, long URLs): terms from elsewhere keep weight 1. Cached per query
 * text (its first 4,096 characters), oldest out first.
 */
function partOfSpeechWeights(
  query: string,
  analyzer: Analyzer,
  table: Readonly<Record<string, number>>,
  cache: Map<string, Map<string, number>>,
): Map<string, number> {
  const text = query.length > MAX_QUERY_SCAN ? query.slice(0, MAX_QUERY_SCAN) : query;
  const cached = cache.get(text);
  if (cached !== undefined) return cached;
  const tagged = text.slice(0, MAX_TAGGED_LENGTH).replace(UNTAGGED_RUN, ' ');
  // A bounded instance: the tagger adds the query's new words to wink-nlp's lexicon.
  const nlp = winkInstanceFor('pos', tagged);
  const tokens = nlp.readDoc(tagged).tokens();
  const values = tokens.out(nlp.its.value) as string[];
  const tags = tokens.out(nlp.its.pos) as string[];
  const weights = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const weight = table[tags[i]!] ?? 1;
    for (const term of analyzer.analyze(values[i]!)) {
      const known = weights.get(term);
      if (known === undefined || weight > known) weights.set(term, weight);
    }
  }
  if (cache.size >= POS_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, weights);
  return weights;
}

function createSearcher(
  index: FieldIndex,
  analyzer: Analyzer,
  tuning: Bm25Tuning,
  posCache: Map<string, Map<string, number>>,
): RankerIndex {
  const { n, offsets, docs, weights, groupOf, groupMembers, slab } = index;
  // The dictionary the index was built with (a full dictionary is replaced, not changed).
  const terms = dictionary;
  const expansions = expansionsFor(analyzer, tuning);
  const relatedWords =
    tuning.relatedWords && tuning.relatedWordsWeight > 0 && tuning.analyzer.normalize === 'stem';
  const relatedWeight = tuning.relatedWordsWeight;
  const vocabulary = offsets.length - 1;
  // Scratch space reused by every query of this index (searches are synchronous).
  const scores = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched = new Uint32Array(n);
  const groupBest = new Float64Array(groupMembers.length);
  let touchedCount = 0;

  const touch = (doc: number): void => {
    if (seen[doc] === 0) {
      seen[doc] = 1;
      touched[touchedCount++] = doc;
    }
  };

  const accumulate = (query: string): void => {
    let previous = -1;
    const ids: number[] = [];
    const factors: number[] = [];
    const analysed = analyzer.analyze(query);
    const termIds: number[] = [];
    for (const term of analysed) {
      const id = terms.get(term);
      termIds.push(id ?? -1);
      if (id === undefined || id >= vocabulary || offsets[id] === offsets[id + 1]) continue;
      if (id !== previous && !ids.includes(id)) {
        ids.push(id);
        factors.push(1);
      }
      previous = id;
    }
    if (tuning.partOfSpeechWeights !== false && ids.length > 1) {
      const byTerm = partOfSpeechWeights(query, analyzer, tuning.partOfSpeechWeights, posCache);
      for (let i = 0; i < analysed.length; i++) {
        const weight = byTerm.get(analysed[i]!);
        if (weight === undefined) continue;
        const q = ids.indexOf(termIds[i]!);
        if (q >= 0) factors[q] = weight;
      }
    }
    const add = (term: string, factor: number): void => {
      const id = terms.get(term);
      if (id === undefined || id >= vocabulary || offsets[id] === offsets[id + 1]) return;
      if (ids.includes(id)) return;
      ids.push(id);
      factors.push(factor);
    };
    if (expansions !== undefined) {
      const weight = tuning.expansionWeight;
      for (const term of analysed) {
        const synonyms = expansions.synonyms.get(term);
        if (synonyms !== undefined) for (const synonym of synonyms) add(synonym, weight);
      }
      for (const term of mentionedKinds(query, expansions)) add(term, weight);
    }
    if (relatedWords) {
      // Only the words the catalog does not use: they match nothing as they are.
      const table = sharedRelatedWords();
      for (let i = 0; i < analysed.length && table !== undefined; i++) {
        if (termIds[i]! >= 0 && ids.includes(termIds[i]!)) continue;
        const related = table.get(analysed[i]!);
        if (related !== undefined) for (const term of related) add(term, relatedWeight);
      }
    }
    // Each distinct query term counts once: repeats in long queries are not evidence.
    for (let q = 0; q < ids.length; q++) {
      const id = ids[q]!;
      const start = offsets[id]!;
      const end = offsets[id + 1]!;
      const idf = idfOf(end - start, n) * factors[q]!;
      for (let p = start; p < end; p++) {
        const doc = docs[p]!;
        touch(doc);
        scores[doc]! += idf * weights[p]!;
      }
    }
    if (tuning.proximityWeight > 0) addProximity(termIds);
  };

  let pairDocs: Uint32Array | undefined;
  let pairCounts: Uint8Array | undefined;
  /**
   * Proximity: each distinct pair of adjacent query terms (a, b) that is also adjacent,
   * in that order, in the first sentence of a tool's description adds the pair's idf
   * (over the tools that have it) × proximityWeight × its saturated count. The tools are
   * found by intersecting the postings of a and b (both in catalog order).
   */
  const addProximity = (termIds: readonly number[]): void => {
    const k1 = tuning.k1;
    const done: number[] = [];
    for (let i = 1; i < termIds.length; i++) {
      const a = termIds[i - 1]!;
      const b = termIds[i]!;
      if (a < 0 || b < 0 || a === b || a >= vocabulary || b >= vocabulary) continue;
      let repeated = false;
      for (let d = 0; d < done.length && !repeated; d += 2) {
        repeated = done[d] === a && done[d + 1] === b;
      }
      if (repeated) continue;
      done.push(a, b);
      // Walk the shorter postings list; binary-search the longer one from where the
      // last search stopped (both are in catalog order).
      let short = offsets[a]!;
      let shortEnd = offsets[a + 1]!;
      let long = offsets[b]!;
      let longEnd = offsets[b + 1]!;
      if (short === shortEnd || long === longEnd) continue;
      if (shortEnd - short > longEnd - long) {
        [short, long] = [long, short];
        [shortEnd, longEnd] = [longEnd, shortEnd];
      }
      pairDocs ??= new Uint32Array(n);
      pairCounts ??= new Uint8Array(n);
      let found = 0;
      for (; short < shortEnd && long < longEnd; short++) {
        const doc = docs[short]!;
        let low = long;
        let high = longEnd;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (docs[middle]! < doc) low = middle + 1;
          else high = middle;
        }
        long = low;
        if (long === longEnd || docs[long] !== doc) continue;
        const count = adjacentCount(slab, doc, a, b);
        if (count > 0) {
          pairDocs[found] = doc;
          pairCounts[found] = count;
          found++;
        }
      }
      if (found === 0) continue;
      const idf = idfOf(found, n) * tuning.proximityWeight;
      for (let j = 0; j < found; j++) {
        const count = pairCounts[j]!;
        scores[pairDocs[j]!]! += (idf * (count * (k1 + 1))) / (k1 + count);
      }
    }
  };

  const groupLift = new Float64Array(groupMembers.length);
  /**
   * Lifts every tool of the best groups by a share of the group's best score. Untouched
   * members all get the same score and tie in catalog order, so only the first `limit`
   * of them can reach the results: the others are not visited.
   */
  const boostGroups = (limit: number): void => {
    const groups: number[] = [];
    const count = touchedCount;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const group = groupOf[doc]!;
      if (group < 0) continue;
      if (groupBest[group] === 0) groups.push(group);
      if (scores[doc]! > groupBest[group]!) groupBest[group] = scores[doc]!;
    }
    groups.sort((a, b) => groupBest[b]! - groupBest[a]! || a - b);
    const top = Math.min(groups.length, tuning.groupTop);
    for (let g = 0; g < top; g++)
      groupLift[groups[g]!] = tuning.groupBoost * groupBest[groups[g]!]!;
    for (let i = 0; i < count; i++) {
      const group = groupOf[touched[i]!]!;
      if (group >= 0 && groupLift[group]! > 0) scores[touched[i]!]! += groupLift[group]!;
    }
    for (let g = 0; g < top; g++) {
      const group = groups[g]!;
      let added = 0;
      for (const doc of groupMembers[group]!) {
        if (added === limit) break;
        if (seen[doc] === 1) continue;
        touch(doc);
        scores[doc] = groupLift[group]!;
        added++;
      }
    }
    for (const group of groups) {
      groupBest[group] = 0;
      groupLift[group] = 0;
    }
  };

  const reset = (): void => {
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      scores[doc] = 0;
      seen[doc] = 0;
    }
    touchedCount = 0;
  };

  const exactFirst = (query: string, results: RankedTool[], limit: number): RankedTool[] => {
    const named = exactMatches(index, query);
    for (const word of quotedIdentifiers(query)) {
      for (const doc of exactMatches(index, word)) if (!named.includes(doc)) named.push(doc);
    }
    if (named.length === 0) return results;
    const top = (results[0]?.score ?? 0) + 1;
    const first = named.map((doc) => ({ name: index.names[doc]!, score: top }));
    const firstNames = new Set(first.map((hit) => hit.name));
    return [...first, ...results.filter((hit) => !firstNames.has(hit.name))].slice(0, limit);
  };

  let lowerNames: string[] | undefined;
  const fallback = (query: string, limit: number): RankedTool[] => {
    const needle = query.toLowerCase().trim();
    if (needle === '') return [];
    lowerNames ??= index.names.map((name) => name.toLowerCase());
    const hits: RankedTool[] = [];
    for (let doc = 0; doc < n && hits.length < limit; doc++) {
      if (lowerNames[doc]!.includes(needle)) {
        hits.push({ name: index.names[doc]!, score: FALLBACK_SCORE });
      }
    }
    return hits;
  };

  return {
    search(query: string, limit: number): RankedTool[] {
      if (n === 0 || typeof query !== 'string' || !(limit >= 1)) return [];
      const k = Math.min(Math.floor(limit), n);
      let results: RankedTool[];
      try {
        accumulate(query);
        if (tuning.groupBoost > 0 && groupMembers.length > 0) boostGroups(k);
        results = topK(scores, touched, touchedCount, k).map((doc) => ({
          name: index.names[doc]!,
          score: scores[doc]!,
        }));
      } finally {
        reset();
      }
      if (tuning.exactNameFirst) results = exactFirst(query, results, k);
      return results.length > 0 ? results : fallback(query, k);
    },
  };
}

// Per kind of analysis, the vectors of the tools seen, memoized per tool object.
const vectorMemos = new Map<string, VectorMemo<ToolDefinition>>();

function vectorMemoFor(analyzerId: string): VectorMemo<ToolDefinition> {
  let memo = vectorMemos.get(analyzerId);
  if (memo === undefined) {
    memo = new VectorMemo();
    vectorMemos.set(analyzerId, memo);
  }
  return memo;
}

/** How many recent indexes a ranker keeps for tool lists it sees again. */
const INDEX_CACHE_SIZE = 2;

interface CachedIndex {
  readonly tools: readonly ToolDefinition[];
  readonly index: RankerIndex;
  /** The vector of each tool. */
  readonly slab: VectorSlab;
}

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Creates the field-weighted BM25 (BM25F) ranker behind the default preset.
 *
 * Speed by design: each tool's analysed fields are memoized per tool object (a
 * `WeakMap`), terms are interned to integers, postings are typed arrays, and a query
 * touches only the postings of its terms and keeps a partial top-k. Indexing the same
 * sequence of tool objects again returns the index built before; indexing a list where
 * a few tools changed analyses only those.
 *
 * @internal
 */
export function createFieldBm25Ranker(
  overrides: Bm25TuningOverrides = {},
  id = 'bm25:default',
): Ranker {
  const tuning = resolveBm25Tuning(overrides);
  const analyzer = createAnalyzer(tuning.analyzer);
  const vectors = vectorMemoFor(analyzer.id);
  const recent: CachedIndex[] = [];
  // Part-of-speech weights per query text, shared by the indexes of this ranker.
  const posCache = new Map<string, Map<string, number>>();
  return {
    specificationVersion: 'v1',
    id,
    index(tools: readonly ToolDefinition[]): RankerIndex {
      const hit = recent.findIndex((entry) => sameTools(entry.tools, tools));
      if (hit >= 0) {
        const entry = recent[hit]!;
        if (hit > 0) {
          recent.splice(hit, 1);
          recent.unshift(entry);
        }
        return entry.index;
      }
      // Loads the query tagger (wink-nlp, a one-time 0.2 s) with the first index rather
      // than in the middle of a first search.
      if (tuning.partOfSpeechWeights !== false) winkInstance('pos');
      if (dictionary.size >= MAX_DICTIONARY_SIZE) {
        dictionary = new Map();
        generation++;
        slotOf = new Int32Array(1024);
        slotStamp = new Uint32Array(1024);
      }
      // Tools at the same position as in the last index take its vector, copied in runs:
      // a pointer compare instead of a memo lookup per tool.
      const last = recent[0];
      const lastSlab = last !== undefined && last.slab.generation === generation ? last : undefined;
      const n = tools.length;
      const capacity =
        lastSlab !== undefined && lastSlab.tools.length > 0
          ? Math.ceil((lastSlab.slab.bytes.length / lastSlab.tools.length) * n * 1.05)
          : n * 256;
      const writer = new SlabWriter(n, capacity);
      let run = -1;
      for (let i = 0; i < n; i++) {
        const tool = tools[i]!;
        if (lastSlab !== undefined && lastSlab.tools[i] === tool) {
          if (run < 0) run = i;
          continue;
        }
        if (run >= 0) {
          writer.copy(lastSlab!.slab, run, i);
          run = -1;
        }
        const doc = vectors.find(tool, generation);
        if (doc >= 0) writer.copy(vectors.found!, doc, doc + 1);
        else buildVector(tool, analyzer, writer);
      }
      if (run >= 0) writer.copy(lastSlab!.slab, run, n);
      vectors.found = undefined;
      const slab = writer.finish(generation);
      const list = [...tools];
      vectors.remember(list, slab);
      const index = createSearcher(buildIndex(list, slab, tuning), analyzer, tuning, posCache);
      recent.unshift({ tools: list, index, slab });
      if (recent.length > INDEX_CACHE_SIZE) recent.pop();
      return index;
    },
  };
}
