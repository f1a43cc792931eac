import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import winkNLP, { type Model } from 'wink-nlp';
import { corpus, reading } from './__fixtures__/wink-corpus.js';
import { ToolSearchError } from './errors.js';
import { loadModelPart, winkModel } from './wink-model.js';

const require = createRequire(import.meta.url);

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
