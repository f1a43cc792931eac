import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import winkNLP, { type ItsFunction, type Model } from 'wink-nlp';
import { toolFieldTexts } from './analyzer-fields.js';
import { ToolSearchError } from './errors.js';
import { conformanceTools } from './testing/fixtures.js';
import { coreModelJson, loadModelPart, winkModel } from './wink-model.js';

const require = createRequire(import.meta.url);

/** What a document says of each token, as the analyzer and the query tagger read it. */
function reading(model: Model, texts: readonly string[]): unknown[] {
  const nlp = winkNLP(model, ['pos']);
  const out: unknown[] = [];
  for (const text of texts) {
    const tokens = nlp.readDoc(text).tokens();
    const read = <T>(its: unknown): T[] => tokens.out(its as ItsFunction<T>) as T[];
    out.push([
      read(nlp.its.value),
      read(nlp.its.precedingSpaces),
      read(nlp.its.pos),
      read(nlp.its.stem),
      read(nlp.its.lemma),
      read(nlp.its.normal),
      read(nlp.its.stopWordFlag),
      read(nlp.its.type),
    ]);
  }
  return out;
}

/**
 * A corpus: the fixture tools' texts, hand-picked hard cases (contractions, spellings
 * the model maps, abbreviations, punctuation, numbers, unknown words), and sentences
 * of every 29th word of the model's own lexicon in three casings.
 */
function corpus(): string[] {
  const texts = conformanceTools.flatMap((tool) => Object.values(toolFieldTexts(tool)));
  texts.push(
    "I can't believe it's the colour abt the U.S. team; they cannot go, won't they?",
    'Send 3 emails quickly to Bob\'s team at 10:30am, e.g. "urgent" ones!!',
    'create an issue in a github repository',
    'Find cheap flights from NYC to LA next Friday under $300 (non-stop).',
    'zzyzxqwerty blorf kubernetes k8s getHTTPResponse snake_case_name v2.1.0 #tag @user',
  );
  const words = coreModelJson().features.lexeme!.list;
  for (let start = 0; start < words.length; start += 29 * 16) {
    const sentence: string[] = [];
    for (let k = start; k < Math.min(words.length, start + 29 * 16); k += 29) {
      sentence.push(words[k]!);
    }
    const text = sentence.join(' ');
    texts.push(
      text,
      text.toUpperCase(),
      text.replace(/\b\w/g, (c) => c.toUpperCase()),
    );
  }
  return texts;
}

describe('winkModel', () => {
  it("reads a corpus exactly as the model's own model.js does", () => {
    const texts = corpus();
    expect(texts.length).toBeGreaterThan(500);
    const stock = require('wink-eng-lite-web-model') as Model;
    expect(reading(winkModel(), texts)).toEqual(reading(stock, texts));
  });

  it('gives each instance its own lexicon: words one instance learns stay out of the next', () => {
    const first = winkNLP(winkModel(), ['pos']);
    first.readDoc('qwzxblorf vexillated');
    const second = winkNLP(winkModel(), ['pos']);
    const stock = winkNLP(require('wink-eng-lite-web-model') as Model, ['pos']);
    const text = 'vexillated qwzxblorf files';
    expect(second.readDoc(text).tokens().out(second.its.pos)).toEqual(
      stock.readDoc(text).tokens().out(stock.its.pos),
    );
  });

  it('reports a part that cannot be loaded as a typed module_unavailable error', () => {
    const missing = {
      get(): unknown {
        throw new Error('wink-eng-lite-web-model cannot be loaded on this runtime');
      },
      available: () => false,
    };
    let thrown: unknown;
    try {
      loadModelPart(missing, 'x');
    } catch (error) {
      thrown = error;
    }
    expect(ToolSearchError.isInstance(thrown)).toBe(true);
    expect((thrown as { code: string }).code).toBe('module_unavailable');
    expect((thrown as { data: { path: string } }).data.path).toBe('wink-eng-lite-web-model');
  });
});
