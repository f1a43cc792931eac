import type { ItsFunction } from 'wink-nlp';
import { winkInstanceFor, winkLexicon } from './analyzer-wink.js';
import { ToolSearchError } from './errors.js';

/**
 * Text analysis for search: turns a text into the terms an index stores and a query
 * looks up. The same analyzer must serve both sides.
 */
export interface Analyzer {
  /** A stable id naming the analysis, e.g. `wink:stem:stop`; equal ids analyse alike. */
  readonly id: string;
  /**
   * The terms of a text, in text order, duplicates kept.
   *
   * @param text - any string; only its first `maxTextLength` characters are read
   */
  analyze(text: string): string[];
}

/** How an analyzer reduces English words to a common form. */
export type AnalyzerNormalization = 'stem' | 'lemma' | 'none';

/** Options of {@link createAnalyzer}. */
export interface AnalyzerOptions {
  /**
   * `stem`: wink-nlp's Porter2 stems (`files`, `filed` → `file`); `lemma`: wink-nlp's
   * lemmas (`files` → `file`, `created` → `create`); `none`: lowercased words.
   * @defaultValue 'stem'
   */
  normalize?: AnalyzerNormalization;
  /**
   * Drops English stop words (wink-nlp's list, less a few words that name what a tool
   * does, such as `get`, `show`, `move`, `call`, `name`, `first`, `last`).
   * @defaultValue true
   */
  stopWords?: boolean;
  /**
   * Splits identifiers: camelCase and PascalCase (`getHTTPResponse` → `get http response`).
   * Separators (`_ - . : /` and the like) always split. Turn off only to measure.
   * @defaultValue true
   */
  splitIdentifiers?: boolean;
  /** Only this many characters of a text are analysed (bounds the cost of hostile input). @defaultValue 4096 */
  maxTextLength?: number;
  /** Longer tokens are cut to this many characters. @defaultValue 32 */
  maxTokenLength?: number;
  /** The most distinct words whose analysis is remembered. @defaultValue 100000 */
  cacheSize?: number;
}

/** The default {@link AnalyzerOptions.maxTextLength}. */
export const DEFAULT_MAX_TEXT_LENGTH = 4_096;
/** The default {@link AnalyzerOptions.maxTokenLength}. */
export const DEFAULT_MAX_TOKEN_LENGTH = 32;
const DEFAULT_CACHE_SIZE = 100_000;

// wink-nlp's stop words that name what tools do or what they act on: kept as terms.
const KEPT_STOP_WORDS = new Set([
  'get',
  'show',
  'call',
  'move',
  'name',
  'top',
  'bottom',
  'back',
  'full',
  'empty',
  'first',
  'last',
  'up',
  'down',
  'make',
  'take',
  'give',
  'see',
  'go',
  'find',
  'fill',
  'describe',
  'system',
  'detail',
  'interest',
  'part',
  'amount',
  'side',
  'front',
  'found',
  'put',
  'keep',
  'mine',
  'latter',
  'former',
  'twelve',
  'eleven',
  'hundred',
  'thousand',
]);

// Latin identifiers: acronyms (with a plural s), capitalised or lowercase words, each
// with trailing digits, or digits with trailing letters.
const ASCII_IDENTIFIER_PART =
  /^[a-z][A-Z][a-z]+[0-9]*|[A-Z]{2,}s(?![a-z])|[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+[a-z]*/g;
const UNICODE_IDENTIFIER_PART =
  /\p{Lu}{2,}s(?!\p{Ll})|\p{Lu}+[\p{N}\p{M}]*(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{Lt}\p{M}]+[\p{N}\p{M}]*|\p{N}+[\p{Ll}\p{Lo}\p{M}]*/gu;
const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
// English clitics (`what's`, `I'm`, `couldn't`) would leave one-letter tokens behind.
const CLITIC = /(?<=[a-zA-Z])(?:n['’]t|['’](?:s|m|re|ve|ll|d))\b/gi;
// An unbroken run this long is a blob (base64, a hash), not words: kept as one cut token.
const BLOB_LENGTH = 64;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const LOWER_WORD = /^[a-z]+$/;
// Scripts written without spaces between words: indexed as overlapping character bigrams.
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/u;
const UNSPACED_OR_NOT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;

/** A word's analysis: one term, several, or none (`''`, a stop word). */
type WordTerms = string | readonly string[];

interface WordCache {
  readonly map: Map<string, WordTerms>;
  readonly limit: number;
}

// One cache per kind of analysis, shared by every analyzer of that kind.
const caches = new Map<string, WordCache>();

function cacheFor(key: string, limit: number): WordCache {
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = { map: new Map(), limit };
    caches.set(key, cache);
  }
  return cache;
}

function remember(cache: WordCache, word: string, terms: WordTerms): void {
  if (cache.map.size >= cache.limit) {
    // Oldest first: Map iterates in insertion order.
    const oldest = cache.map.keys().next();
    if (!oldest.done) cache.map.delete(oldest.value);
  }
  cache.map.set(word, terms);
}

/** Pushes overlapping character bigrams of a run of an unspaced script (the run itself if one character). */
function pushBigrams(run: string, out: string[], maxTokenLength: number): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  // Bound the work on a long run the same way as any long token.
  const end = Math.min(chars.length - 1, maxTokenLength * 4);
  for (let i = 0; i < end; i++) out.push(chars[i]! + chars[i + 1]!);
}

/**
 * Creates a text analyzer built on wink-nlp (`wink-eng-lite-web-model`).
 *
 * A fast Unicode tokenizer first splits the text into words, and identifiers into
 * their parts: snake_case, kebab-case, dots, colons, slashes, `server__tool`,
 * camelCase and PascalCase (`getHTTPResponse` → `get`, `http`, `response`). Words are
 * lowercased. English words then go through the real wink-nlp pipeline for stems or
 * lemmas and stop words, once per distinct word: results are cached (bounded), and
 * the words a text has not seen before are analysed together in one wink document.
 * Scripts written without spaces (Chinese, Japanese, Korean, Thai, ...) become
 * overlapping character bigrams, so they stay searchable; other scripts are
 * lowercased words. Every text is cut to `maxTextLength` characters and every token to
 * `maxTokenLength`, so the cost of a hostile input is bounded.
 *
 * @example
 * ```ts
 * const analyzer = createAnalyzer();
 * analyzer.analyze('slack_postMessage: Posts messages to channels');
 * // → ['slack', 'post', 'messag', 'post', 'messag', 'channel']
 * ```
 *
 * @param options.normalize - `stem`, `lemma` or `none` @defaultValue 'stem'
 * @param options.stopWords - drop English stop words @defaultValue true
 * @param options.splitIdentifiers - split camelCase and PascalCase @defaultValue true
 * @param options.maxTextLength - characters read per text @defaultValue 4096
 * @param options.maxTokenLength - characters kept per token @defaultValue 32
 * @param options.cacheSize - distinct words remembered @defaultValue 100000
 * @returns an {@link Analyzer}
 * @throws {@link ToolSearchError} `invalid_argument` for an unknown `normalize` value or a non-positive bound
 */
export function createAnalyzer(options: AnalyzerOptions = {}): Analyzer {
  const normalize = options.normalize ?? 'stem';
  const stopWords = options.stopWords ?? true;
  const splitIdentifiers = options.splitIdentifiers ?? true;
  const maxTextLength = options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH;
  const maxTokenLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
  const cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
  if (normalize !== 'stem' && normalize !== 'lemma' && normalize !== 'none') {
    throw new ToolSearchError(
      'invalid_argument',
      `Unknown analyzer normalization '${String(normalize)}'. Use 'stem', 'lemma' or 'none'.`,
    );
  }
  for (const [name, value] of [
    ['maxTextLength', maxTextLength],
    ['maxTokenLength', maxTokenLength],
    ['cacheSize', cacheSize],
  ] as const) {
    if (!(Number.isInteger(value) && value > 0)) {
      throw new ToolSearchError(
        'invalid_argument',
        `Analyzer option ${name} must be a positive integer, got ${String(value)}.`,
      );
    }
  }
  const usesWink = normalize !== 'none' || stopWords;
  const wordKey = `${normalize}:${stopWords ? 'stop' : 'all'}`;
  const id = `wink:${normalize}:${stopWords ? 'stop' : 'all'}${splitIdentifiers ? '' : ':nosplit'}`;
  const cache = cacheFor(`${wordKey}:${cacheSize}`, cacheSize);

  /**
   * Analyses words and caches each word's terms. Stems and stop words come straight from
   * the model (its Porter2 stemmer, the function behind wink-nlp's `its.stem`, and its
   * stop-word flags), so that words never enter wink-nlp's lexicon, which keeps every
   * word it reads. Lemmas, and the few words wink-nlp does not read as one token of
   * their own (contractions such as `cannot`, words with another normal form), go
   * through one wink-nlp document.
   */
  const analyzeWords = (words: readonly string[]): void => {
    if (normalize === 'lemma') {
      analyzeInWink(words);
      return;
    }
    const { stem, stopWords: stops, special } = winkLexicon();
    let rest: string[] | undefined;
    for (const word of words) {
      if (special.has(word)) {
        rest ??= [];
        rest.push(word);
      } else if (stopWords && stops.has(word) && !KEPT_STOP_WORDS.has(word)) {
        remember(cache, word, '');
      } else {
        remember(cache, word, normalize === 'stem' ? stem(word).toLowerCase() : word);
      }
    }
    if (rest !== undefined) analyzeInWink(rest);
  };

  /**
   * Runs the words through one wink-nlp document and caches each word's terms. Always
   * the `pos` instance, the one the default ranker's query tagger loads anyway: its tokens,
   * stems and stop-word flags are those of the `tokens` pipeline, and a second instance
   * would hold a second copy of the model (see the benchmarks guide for its heap).
   */
  const analyzeInWink = (words: readonly string[]): void => {
    const text = words.join(' ');
    const nlp = winkInstanceFor('pos', text);
    const tokens = nlp.readDoc(text).tokens();
    // wink's typings do not accept its.stem / its.lemma as token functions: go through unknown.
    const out = <T>(its: unknown): T[] => tokens.out(its as ItsFunction<T>) as T[];
    const values = out<string>(nlp.its.value);
    const spaces = out<string>(nlp.its.precedingSpaces);
    const stops = out<boolean>(nlp.its.stopWordFlag);
    const forms =
      normalize === 'stem'
        ? out<string>(nlp.its.stem)
        : normalize === 'lemma'
          ? out<string>(nlp.its.lemma)
          : values;
    // A word is one or more wink tokens: a new word starts after a space.
    const groups: string[][] = [];
    for (let i = 0; i < values.length; i++) {
      if (i === 0 || spaces[i] !== '') groups.push([]);
      const value = values[i]!;
      if (stopWords && stops[i] && !KEPT_STOP_WORDS.has(value)) continue;
      const form = (forms[i] ?? value).toLowerCase();
      if (form !== '') groups[groups.length - 1]!.push(form);
    }
    if (groups.length !== words.length) {
      // wink split or merged differently than expected: fall back to one word at a time.
      if (words.length > 1) for (const word of words) analyzeInWink([word]);
      else remember(cache, words[0]!, words[0]!);
      return;
    }
    for (let i = 0; i < words.length; i++) {
      const terms = groups[i]!;
      remember(cache, words[i]!, terms.length === 1 ? terms[0]! : terms.length === 0 ? '' : terms);
    }
  };

  /** Pushes a lowercased word; marks whether wink-nlp should see it (letters a-z only). */
  const pushWord = (word: string, raw: string[], english: boolean[]): void => {
    const cut = word.length > maxTokenLength ? word.slice(0, maxTokenLength) : word;
    raw.push(cut);
    english.push(LOWER_WORD.test(cut));
  };

  /** The Unicode path: a run with characters beyond ASCII. */
  const tokenizeUnicode = (run: string, raw: string[], english: boolean[]): void => {
    for (const match of run.matchAll(WORD_RUN)) {
      const word = match[0];
      const pieces = UNSPACED_SCRIPT.test(word) ? word.match(UNSPACED_OR_NOT)! : [word];
      for (const piece of pieces) {
        if (UNSPACED_SCRIPT.test(piece)) {
          const before = raw.length;
          pushBigrams(piece, raw, maxTokenLength);
          for (let i = before; i < raw.length; i++) english.push(false);
          continue;
        }
        if (ASCII_ONLY.test(piece)) {
          tokenizeAscii(piece, raw, english);
          continue;
        }
        const parts = splitIdentifiers
          ? (piece.match(UNICODE_IDENTIFIER_PART) ?? [piece])
          : [piece];
        for (const part of parts) pushWord(part.toLowerCase(), raw, english);
      }
    }
  };

  /** An ASCII run of letters and digits: split at camelCase boundaries when it has any. */
  const tokenizeAscii = (run: string, raw: string[], english: boolean[]): void => {
    // Fast path: no capital after the first character, so nothing to split.
    let capitals = false;
    for (let i = 1; i < run.length; i++) {
      const code = run.charCodeAt(i);
      if (code >= 65 && code <= 90) {
        capitals = true;
        break;
      }
    }
    if (!capitals || !splitIdentifiers || run.length >= BLOB_LENGTH) {
      pushWord(run.toLowerCase(), raw, english);
      return;
    }
    for (const part of run.matchAll(ASCII_IDENTIFIER_PART)) {
      pushWord(part[0].toLowerCase(), raw, english);
    }
  };

  /**
   * Splits a text into lowercased words (unspaced scripts into bigrams) with one scan
   * over character codes; runs with non-ASCII characters take the Unicode path.
   */
  const tokenize = (text: string, raw: string[], english: boolean[]): void => {
    let input = text.length > maxTextLength ? text.slice(0, maxTextLength) : text;
    if (input.includes("'") || input.includes('’')) input = input.replace(CLITIC, '');
    const length = input.length;
    let start = -1;
    let ascii = true;
    for (let i = 0; i <= length; i++) {
      const code = i < length ? input.charCodeAt(i) : 32;
      // Letters and digits, and anything beyond ASCII (sorted out on the Unicode path).
      const inWord =
        code >= 128 ||
        (code >= 97 && code <= 122) ||
        (code >= 65 && code <= 90) ||
        (code >= 48 && code <= 57);
      if (inWord) {
        if (start < 0) {
          start = i;
          ascii = true;
        }
        if (code >= 128) ascii = false;
        continue;
      }
      if (start < 0) continue;
      const run = input.slice(start, i);
      start = -1;
      if (ascii) tokenizeAscii(run, raw, english);
      else tokenizeUnicode(run, raw, english);
    }
  };

  return {
    id,
    analyze(text: string): string[] {
      if (typeof text !== 'string' || text.length === 0) return [];
      const raw: string[] = [];
      const english: boolean[] = [];
      tokenize(text, raw, english);
      if (!usesWink) return raw;
      // One lookup per word; the misses are analysed together in one wink document.
      const found: (WordTerms | undefined)[] = new Array(raw.length);
      let misses: Set<string> | undefined;
      for (let i = 0; i < raw.length; i++) {
        if (!english[i]) continue;
        const analysed = cache.map.get(raw[i]!);
        if (analysed !== undefined) {
          found[i] = analysed;
          continue;
        }
        if (misses === undefined) misses = new Set();
        misses.add(raw[i]!);
      }
      if (misses !== undefined) analyzeWords([...misses]);
      const terms: string[] = [];
      for (let i = 0; i < raw.length; i++) {
        const word = raw[i]!;
        if (!english[i]) {
          terms.push(word);
          continue;
        }
        let analysed = found[i] ?? cache.map.get(word);
        // A word evicted since the lookup above is analysed on its own.
        if (analysed === undefined) {
          analyzeWords([word]);
          analysed = cache.map.get(word) ?? word;
        }
        if (typeof analysed === 'string') {
          if (analysed !== '') terms.push(analysed);
        } else {
          for (const term of analysed) terms.push(term);
        }
      }
      return terms;
    },
  };
}
