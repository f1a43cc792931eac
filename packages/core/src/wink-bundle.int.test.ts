// Integration tier: esbuild runs as a child process. The build's `dist/wink.cjs`
// (bundle.ts) read against the packages it was bundled from.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type winkNLP from 'wink-nlp';
import type { Model } from 'wink-nlp';
import { bundleWink, WINK_MODEL_PARTS } from '../bundle.js';
import { corpus, reading } from './__fixtures__/wink-corpus.js';

const require = createRequire(import.meta.url);
const MODEL = 'wink-eng-lite-web-model';

type Bundled = Record<keyof typeof WINK_MODEL_PARTS, unknown> & {
  nlp: typeof winkNLP;
  versions: Record<string, string>;
};

let dir: string;
let bundled: Bundled;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'core-wink-bundle-'));
  await bundleWink(join(dir, 'wink.cjs'));
  bundled = require(join(dir, 'wink.cjs')) as Bundled;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The model as its own `model.js` assembles it, with the parts taken from `parts`. */
function modelWith(parts: Partial<Record<keyof typeof WINK_MODEL_PARTS, unknown>>): Model {
  const stock = require(MODEL) as Model & Record<string, unknown>;
  const model = Object.assign(Object.create(null), stock) as Record<string, unknown>;
  const addons = Object.assign(Object.create(null), stock.addons) as Record<string, unknown>;
  model.sbd = parts.sbd;
  model.pos = parts.pos;
  model.metaCER = parts.cer;
  model.featureFn = parts.feature;
  addons.stem = parts.stem;
  model.addons = addons;
  return model as unknown as Model;
}

describe('wink.cjs (bundle.ts)', () => {
  it('names the versions of the two packages it was bundled from', () => {
    expect(bundled.versions).toEqual({
      'wink-nlp': (require('wink-nlp/package.json') as { version: string }).version,
      [MODEL]: (require(`${MODEL}/package.json`) as { version: string }).version,
    });
  });

  it('holds wink-nlp and every part of the model core loads, not the model JSON', () => {
    for (const key of ['nlp', ...Object.keys(WINK_MODEL_PARTS)]) {
      expect(typeof bundled[key as keyof Bundled], key).toBe('function');
    }
    const own = require(`${MODEL}/dist/porter-stemmer.js`) as unknown;
    expect(bundled.stem).not.toBe(own);
  });

  it("reads a corpus exactly as the packages' own wink-nlp and model.js do", () => {
    const texts = corpus();
    expect(texts.length).toBeGreaterThan(500);
    const parts = Object.fromEntries(
      Object.keys(WINK_MODEL_PARTS).map((key) => [key, bundled[key as keyof Bundled]]),
    );
    const expected = reading(require(MODEL) as Model, texts);
    expect(reading(modelWith(parts), texts, bundled.nlp)).toEqual(expected);
  });
});
