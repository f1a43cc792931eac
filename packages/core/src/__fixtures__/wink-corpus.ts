// A corpus and a reading of it, for the differential tests of the English model
// (wink-model.test.ts: our assembly; wink-bundle.int.test.ts: the bundled code).
import winkNLP, { type ItsFunction, type Model } from 'wink-nlp';
import { toolFieldTexts } from '../analyzer-fields.js';
import { conformanceTools } from '../testing/fixtures.js';
import { coreModelJson } from '../wink-model.js';

/** What a document says of each token, as the analyzer and the query tagger read it. */
export function reading(model: Model, texts: readonly string[], nlpOf?: typeof winkNLP): unknown[] {
  const nlp = (nlpOf ?? winkNLP)(model, ['pos']);
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
export function corpus(): string[] {
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
