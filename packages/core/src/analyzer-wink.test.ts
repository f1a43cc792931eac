import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ItsFunction } from 'wink-nlp';
import { createAnalyzer } from './analyzer.js';
import {
  deriveWinkLexicon,
  winkInstance,
  winkInstanceFor,
  winkLexicon,
  winkModel,
} from './analyzer-wink.js';
import { WINK_MODEL_VERSION } from './wink-lexicon-data.js';

const require = createRequire(import.meta.url);

const WORDS = [
  'files',
  'filed',
  'running',
  'generously',
  'repositories',
  'kubernetes',
  'zzyzxqwerty',
  'the',
  'and',
  'cannot',
  'abt',
  'pls',
  'colour',
  'get',
  'show',
];

describe('winkLexicon', () => {
  it('stems and drops stop words exactly as a wink-nlp document does', () => {
    const nlp = winkInstance('tokens');
    const tokens = nlp.readDoc(WORDS.join(' ')).tokens();
    const values = tokens.out(nlp.its.value) as string[];
    const spaces = tokens.out(nlp.its.precedingSpaces) as string[];
    const stops = tokens.out(nlp.its.stopWordFlag) as boolean[];
    const stemsOut = tokens.out(nlp.its.stem as unknown as ItsFunction<string>) as string[];
    const expected: string[][] = [];
    for (let i = 0; i < values.length; i++) {
      if (i === 0 || spaces[i] !== '') expected.push([]);
      if (stops[i] && !['get', 'show'].includes(values[i]!)) continue;
      expected[expected.length - 1]!.push(stemsOut[i]!.toLowerCase());
    }
    const analyzer = createAnalyzer({ cacheSize: 1_000 });
    expect(WORDS.map((word) => analyzer.analyze(word))).toEqual(expected);
  });

  it('knows the model stop words and the words wink-nlp reads specially', () => {
    const { stem, stopWords, special } = winkLexicon();
    expect(stem('repositories')).toBe('repositori');
    expect(stopWords.has('the')).toBe(true);
    expect(stopWords.has('file')).toBe(false);
    expect(special.has('cannot')).toBe(true);
  });

  it('has the word lists of the installed model (regenerate with build:wink-lexicon)', () => {
    const { stopWords, special } = winkLexicon();
    const derived = deriveWinkLexicon();
    expect([...stopWords].sort()).toEqual(derived.stopWords);
    expect([...special].sort()).toEqual(derived.special);
    expect(derived.stopWords.length).toBeGreaterThan(250);
    expect(derived.special.length).toBeGreaterThan(1_000);
    const { version } = require('wink-eng-lite-web-model/package.json') as { version: string };
    expect(WINK_MODEL_VERSION).toBe(version);
  });
});

describe('winkInstanceFor', () => {
  it('replaces an instance once it has read more than 10,000 distinct words', () => {
    const first = winkInstanceFor('tokens', 'hello');
    expect(winkInstanceFor('tokens', 'hello world')).toBe(first);
    const many = Array.from({ length: 10_001 }, (_, i) => `w${i.toString(36)}`).join(' ');
    expect(winkInstanceFor('tokens', many)).toBe(first);
    const next = winkInstanceFor('tokens', 'hello');
    expect(next).not.toBe(first);
    expect(winkInstanceFor('tokens', 'hello')).toBe(next);
  });
});

describe('winkModel', () => {
  it('hands every new instance the same CER machines (the model restringifies its own)', () => {
    const model = winkModel() as unknown as { metaCER(): { machines: string } };
    const first = model.metaCER().machines;
    expect(typeof first).toBe('string');
    expect(JSON.parse(first)).toBeTypeOf('object');
    // Renew the tagger's instance several times: each load calls metaCER() again.
    for (let round = 0; round < 4; round++) {
      const many = Array.from({ length: 10_001 }, (_, i) => `r${round}w${i.toString(36)}`);
      winkInstanceFor('pos', many.join(' '));
      const renewed = winkInstanceFor('pos', 'hello');
      expect(renewed.readDoc('Find my files').tokens().out()).toEqual(['Find', 'my', 'files']);
    }
    expect(model.metaCER().machines).toBe(first);
  });
});
