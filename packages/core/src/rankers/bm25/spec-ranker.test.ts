import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformanceTools } from '../../testing/fixtures.js';
import type { ToolDefinition } from '../../types.js';
import { createBm25Ranker } from './index.js';
import { specDocumentText, specTokenize } from './spec-ranker.js';

/** The rules written out again, as plainly as possible, to check the real one against. */
function referenceSearch(
  tools: readonly ToolDefinition[],
  query: string,
  limit: number,
): { name: string; score: number }[] {
  const tokenize = (text: string) =>
    (text.match(/[A-Za-z0-9]+/g) ?? []).map((t) => t.toLowerCase());
  const docs = tools.map((tool) =>
    tokenize(
      [
        tool.name.replace(/[_.\-:]/g, ' '),
        tool.description ?? '',
        ...Object.keys(tool.inputSchema.properties ?? {}),
      ].join(' '),
    ),
  );
  const n = docs.length;
  const avgdl = Math.max(1, docs.reduce((sum, doc) => sum + doc.length, 0) / n);
  const scored = tools.map((tool, i) => {
    const doc = docs[i]!;
    let score = 0;
    for (const term of tokenize(query)) {
      const df = docs.filter((d) => d.includes(term)).length;
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * (tf * 2.5)) / (tf + 1.5 * (1 - 0.75 + (0.75 * doc.length) / avgdl));
    }
    return { name: tool.name, score, order: i };
  });
  let hits = scored.filter((hit) => hit.score > 0);
  if (hits.length === 0 && query !== '') {
    hits = scored
      .filter((hit) => hit.name.toLowerCase().includes(query.toLowerCase()))
      .map((hit) => ({ ...hit, score: 0.1 }));
  }
  hits.sort((a, b) => b.score - a.score || a.order - b.order);
  return hits.slice(0, Math.floor(limit)).map(({ name, score }) => ({ name, score }));
}

const tool = (
  name: string,
  description = '',
  properties: Record<string, unknown> = {},
): ToolDefinition => ({ name, description, inputSchema: { type: 'object', properties } });

const spec = createBm25Ranker({ preset: 'spec' });
const search = async (tools: readonly ToolDefinition[], query: string, limit = 10) =>
  (await spec.index(tools)).search(query, limit);

describe("createBm25Ranker({ preset: 'spec' })", () => {
  it('builds the document from the name with _ . - : as spaces, the description and top-level parameter names', () => {
    const t = tool('a_b.c-d:e', 'Some words', {
      owner: { type: 'string', description: 'hidden words' },
      nested: { type: 'object', properties: { inner: { type: 'string' } } },
    });
    expect(specDocumentText(t)).toBe('a b c d e Some words owner nested');
    expect(specTokenize(specDocumentText(t))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'some',
      'words',
      'owner',
      'nested',
    ]);
  });

  it('does not search parameter descriptions or nested parameter names', async () => {
    const tools = [
      tool('one', 'x', { p: { description: 'hidden' }, q: { properties: { inner: {} } } }),
      tool('two', 'y'),
    ];
    expect(await search(tools, 'hidden')).toEqual([]);
    expect(await search(tools, 'inner')).toEqual([]);
    expect((await search(tools, 'p')).map((hit) => hit.name)).toEqual(['one']);
  });

  it('tokenizes as lowercased [A-Za-z0-9]+ runs: no camelCase split, other scripts are separators', () => {
    expect(specTokenize('getHTTPResponse v2 Ünïcode 数据 a/b')).toEqual([
      'gethttpresponse',
      'v2',
      'n',
      'code',
      'a',
      'b',
    ]);
  });

  it('scores with k1 = 1.5, b = 0.75 and idf = ln(1 + (N - df + 0.5) / (df + 0.5))', async () => {
    // Documents: "alpha beta" (2 tokens), "alpha" (1), "gamma gamma gamma" (3); avgdl = 2.
    const tools = [tool('alpha', 'beta'), tool('Alpha'), tool('gamma', 'gamma gamma')];
    const idfAlpha = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
    const idfGamma = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    const bm25 = (idf: number, tf: number, dl: number) =>
      (idf * tf * 2.5) / (tf + 1.5 * (0.25 + (0.75 * dl) / 2));
    const alpha = await search(tools, 'alpha');
    expect(alpha.map((hit) => hit.name)).toEqual(['Alpha', 'alpha']);
    expect(alpha[0]!.score).toBeCloseTo(bm25(idfAlpha, 1, 1), 12);
    expect(alpha[1]!.score).toBeCloseTo(bm25(idfAlpha, 1, 2), 12);
    const gamma = await search(tools, 'gamma');
    expect(gamma).toEqual([{ name: 'gamma', score: expect.closeTo(bm25(idfGamma, 3, 3), 12) }]);
  });

  it('ranks by document length: the shorter of two equal matches wins', async () => {
    const tools = [tool('long_tool', 'alpha with many more words here'), tool('short', 'alpha')];
    expect((await search(tools, 'alpha')).map((hit) => hit.name)).toEqual(['short', 'long_tool']);
  });

  it('floors avgdl at 1', async () => {
    // Token counts 1 and 0: the average 0.5 is floored to 1.
    const tools = [tool('x'), tool('_')];
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 2.5) / (1 + 1.5 * (0.25 + 0.75 * 1));
    const [hit] = await search(tools, 'x');
    expect(hit!.score).toBeCloseTo(expected, 12);
  });

  it('counts duplicated query terms each time', async () => {
    const tools = [tool('file_reader', 'reads a file'), tool('other', 'nothing')];
    const [once] = await search(tools, 'file');
    const [twice] = await search(tools, 'file file');
    expect(twice!.score).toBeCloseTo(2 * once!.score, 12);
  });

  it('returns only tools that score above 0', async () => {
    const tools = [tool('alpha'), tool('beta'), tool('gamma')];
    expect((await search(tools, 'beta unknownword')).map((hit) => hit.name)).toEqual(['beta']);
    expect(await search(tools, 'asdf qwerty foobar')).toEqual([]);
  });

  it('falls back to 0.1 for names containing the raw lowercased query when nothing scores', async () => {
    const tools = [
      tool('slack_post_message', 'Post a new message'),
      tool('slack_list_channels'),
      tool('github_create_issue'),
    ];
    expect(await search(tools, 'ost_mes')).toEqual([{ name: 'slack_post_message', score: 0.1 }]);
    expect(await search(tools, 'ACK_')).toEqual([
      { name: 'slack_post_message', score: 0.1 },
      { name: 'slack_list_channels', score: 0.1 },
    ]);
    // The query is not tokenized for the fallback: the space must occur in the name.
    expect(await search(tools, 'ost mes')).toEqual([]);
    // Any token match wins over the fallback.
    expect((await search(tools, 'post')).every((hit) => hit.score !== 0.1)).toBe(true);
  });

  it('keeps catalog order between equal scores', async () => {
    const tools = [tool('b_tool', 'same'), tool('a_tool', 'same'), tool('c_tool', 'same')];
    expect((await search(tools, 'same')).map((hit) => hit.name)).toEqual([
      'b_tool',
      'a_tool',
      'c_tool',
    ]);
  });

  it('returns at most limit hits, flooring a fractional limit', async () => {
    const tools = [tool('a', 'x'), tool('b', 'x'), tool('c', 'x')];
    expect(await search(tools, 'x', 2)).toHaveLength(2);
    expect(await search(tools, 'x', 2.9)).toHaveLength(2);
    expect(await search(tools, 'x', 0)).toHaveLength(0);
    expect(await search([], 'x', 5)).toEqual([]);
  });

  it('matches an independent implementation of the rules on any query', async () => {
    const vocabulary = [
      ...new Set(conformanceTools.flatMap((t) => specTokenize(specDocumentText(t)))),
    ];
    const index = await spec.index(conformanceTools);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(fc.constantFrom(...vocabulary), { maxLength: 12 }).map((w) => w.join(' ')),
          fc.string({ maxLength: 30 }),
          fc.constantFrom('ost_mes', 'GITHUB', '_', 'search repositories page page'),
        ),
        fc.integer({ min: 1, max: 40 }),
        async (query, limit) => {
          const actual = await index.search(query, limit);
          const expected = referenceSearch(conformanceTools, query, limit);
          expect(actual.map((hit) => hit.name)).toEqual(expected.map((hit) => hit.name));
          actual.forEach((hit, i) => {
            expect(hit.score).toBeCloseTo(expected[i]!.score, 10);
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});
