import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../types.js';
import type { Ranker, RankerIndexOptions } from '../ranker.js';
import { createBm25Ranker } from './index.js';

// Postings are stored as slot differences (varints of one to three bytes here) and
// frequency codes (one byte, or an escape and packed frequencies for a term in several
// fields): a catalog large enough for every width must find exactly the tools that hold
// a term, with the scores their fields give.

const filler = (i: number): ToolDefinition => ({
  name: `filler_${i}`,
  description: `Alpha beta item ${i % 7}`,
  inputSchema: { type: 'object', properties: {} },
});

/**
 * Tools that count the reads of their description (analysing a tool reads it), and what
 * an index of a list analysed: the names whose count changed.
 */
function readCounting() {
  const reads = new Map<string, number>();
  const counted = (i: number, tag = ''): ToolDefinition => {
    const name = `tool_${i}${tag}`;
    return {
      name,
      get description() {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return `${['Read', 'Send', 'List'][i % 3]} the ${['files', 'messages'][i % 2]} ${i}`;
      },
      inputSchema: { type: 'object', properties: {} },
    };
  };
  const indexed = async (
    ranker: Ranker,
    list: readonly ToolDefinition[],
    options: RankerIndexOptions = {},
  ) => {
    const before = new Map(reads);
    const index = await ranker.index(list, options);
    const analysed = [...reads].filter(([name, count]) => count !== (before.get(name) ?? 0));
    return { index, analysed: analysed.map(([name]) => name).sort() };
  };
  return { counted, indexed };
}

describe('postings of the default preset', () => {
  it('finds tools far apart in a large catalog, a term in several fields scoring above one field', async () => {
    const size = 20_000;
    const tools = Array.from({ length: size }, (_, i) => filler(i));
    // Gaps of 4 (one byte), 295 (two bytes) and 19,600 (three bytes) between them.
    tools[1] = { ...filler(1), name: 'zebra_tracker', description: 'Tracks a zebra herd' };
    tools[5] = { ...filler(5), description: 'Alpha beta zebra' };
    tools[300] = {
      ...filler(300),
      inputSchema: {
        type: 'object',
        properties: { zebra: { type: 'string', description: 'which zebra' } },
      },
    };
    tools[19_900] = { ...filler(19_900), description: 'Alpha beta zebra' };
    const index = await createBm25Ranker().index(tools);
    const hits = await index.search('zebra', 10);
    expect(hits.map((hit) => hit.name).sort()).toEqual(
      ['filler_19900', 'filler_300', 'filler_5', 'zebra_tracker'].sort(),
    );
    // Name and description beat the description alone; the two description-only tools,
    // with the same field lengths, score the same.
    expect(hits[0]!.name).toBe('zebra_tracker');
    const score = (name: string) => hits.find((hit) => hit.name === name)!.score;
    expect(score('filler_5')).toBe(score('filler_19900'));
    expect(score('zebra_tracker')).toBeGreaterThan(score('filler_5'));
  });

  it('adds the proximity bonus for a pair late in a long query, past the terms that mark slots', async () => {
    const words = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    const tools: ToolDefinition[] = [
      // Every word is in the catalog, so each is a query term of its own.
      {
        name: 'vocabulary',
        description: words.join(' '),
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'adjacent',
        description: 'Open the river gate. Then more.',
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'apart',
        description: 'Open the gate. Then the river more.',
        inputSchema: { type: 'object', properties: {} },
      },
    ];
    const index = await createBm25Ranker().index(tools);
    for (const query of ['river gate', `${words.join(' ')} river gate`]) {
      const hits = await index.search(query, 3);
      const score = (name: string) => hits.find((hit) => hit.name === name)?.score ?? 0;
      expect(score('adjacent'), query).toBeGreaterThan(score('apart'));
    }
    const plain = await createBm25Ranker({ proximityWeight: 0 }).index(tools);
    const hits = await plain.search(`${words.join(' ')} river gate`, 3);
    const score = (name: string) => hits.find((hit) => hit.name === name)?.score ?? 0;
    expect(score('adjacent')).toBe(score('apart'));
  });

  it('compacts the slots of tools that left after many patches, ranking as a fresh build', async () => {
    const verbs = ['Read', 'Write', 'List', 'Search'];
    // The verb in the name and the description: postings of several fields (escaped codes).
    const base: ToolDefinition[] = Array.from({ length: 40 }, (_, i) => ({
      name: `${verbs[i % 4]!.toLowerCase()}_tool_${i}`,
      description: `${verbs[i % 4]} ${['files', 'issues', 'messages'][i % 3]} number ${i}`,
      inputSchema: { type: 'object', properties: {} },
    }));
    const ranker = createBm25Ranker();
    let tools = base;
    // 1,070 patches of one replaced tool each pass the freed-slot limit (twice the list
    // plus 1,024) once, a few patches before the end: most of the last index's postings
    // were copied by the compaction.
    for (let round = 0; round < 1_070; round++) {
      const at = (round * 7) % tools.length;
      tools = tools.map((tool, i) =>
        i === at ? { ...tool, description: `${tool.description} r${round % 5}` } : tool,
      );
      await ranker.index(tools);
    }
    const patched = await ranker.index(tools);
    const fresh = await createBm25Ranker().index(tools.map((tool) => ({ ...tool })));
    for (const query of [
      'read files',
      'search issues number',
      'write messages r3',
      'list_tool_6',
    ]) {
      expect(await patched.search(query, 40), query).toEqual(await fresh.search(query, 40));
    }
  });

  it('takes back a tool that left with its old slot, ranking as a fresh build', async () => {
    const tools: ToolDefinition[] = Array.from({ length: 30 }, (_, i) => ({
      name: `${['read', 'send', 'list'][i % 3]}_item_${i}`,
      description: `${['Read', 'Send', 'List'][i % 3]} the ${['files', 'messages'][i % 2]} of box ${i}`,
      inputSchema: { type: 'object', properties: {} },
      toolset: `set_${i % 4}`,
    }));
    const ranker = createBm25Ranker();
    await ranker.index(tools);
    // Replaced in place, then the originals back: every one of them comes back.
    const changed = tools.map((tool, i) =>
      i % 5 === 0 ? { ...tool, description: `${tool.description} changed` } : tool,
    );
    await ranker.index(changed);
    const back = await ranker.index([...tools]);
    // Left (a shorter list), then back in another order.
    await ranker.index(tools.slice(10));
    const moved = [...tools.slice(20), ...tools.slice(0, 20)];
    const again = await ranker.index(moved);
    for (const [patched, list] of [
      [back, tools],
      [again, moved],
    ] as const) {
      const fresh = await createBm25Ranker().index(list.map((tool) => ({ ...tool })));
      for (const query of ['read files', 'send messages box', 'list the files', 'read_item_3']) {
        expect(await patched.search(query, 30), query).toEqual(await fresh.search(query, 30));
      }
    }
  });

  it('analyses only the tools that arrive when others moved, left or stayed', async () => {
    const { counted, indexed } = readCounting();
    const tools = Array.from({ length: 40 }, (_, i) => counted(i));
    const ranker = createBm25Ranker();
    await ranker.index(tools);
    const arrivalsAnalysed = async (list: readonly ToolDefinition[], arriving: string[]) => {
      const { index, analysed } = await indexed(ranker, list);
      expect(analysed).toEqual([...arriving].sort());
      return index;
    };
    // Two tools swap places, one is replaced in place, the list keeps its length.
    const swapped = [...tools];
    [swapped[3], swapped[30]] = [swapped[30]!, swapped[3]!];
    swapped[10] = counted(10, '_new');
    await arrivalsAnalysed(swapped, ['tool_10_new']);
    // A tool moves from the middle to the end, one arrives before it: the list grows.
    const grown = [...swapped.slice(0, 5), ...swapped.slice(6), counted(99), swapped[5]!];
    const index = await arrivalsAnalysed(grown, ['tool_99']);
    const fresh = await createBm25Ranker().index(grown.map((tool) => ({ ...tool })));
    for (const query of ['read files', 'send messages', 'tool_5', 'list the files 99']) {
      expect(await index.search(query, 40), query).toEqual(await fresh.search(query, 40));
    }
    // The list shrinks, the tool just past its new end moves to the front, its last tool stays.
    const shrunk = [grown[31]!, ...grown.slice(0, 29), grown[30]!];
    const smaller = await arrivalsAnalysed(shrunk, []);
    const freshSmaller = await createBm25Ranker().index(shrunk.map((tool) => ({ ...tool })));
    expect(await smaller.search('read files', 40)).toEqual(
      await freshSmaller.search('read files', 40),
    );
  });

  it('patches the previous index it is given, looking only at the positions of the change', async () => {
    const { counted, indexed } = readCounting();
    const base = Object.freeze(Array.from({ length: 60 }, (_, i) => counted(i)));
    const ranker = createBm25Ranker();
    const previous = await ranker.index(base);
    // A later list indexed in between: the ranker patches the index it is handed.
    const patch = (at: number[], tag: string) =>
      Object.freeze(base.map((t, i) => (at.includes(i) ? counted(i, tag) : t)));
    await ranker.index(patch([3, 40], '_a'));
    const second = patch([40, 41], '_b');
    const { index, analysed } = await indexed(ranker, second, {
      previous,
      change: { from: 1, changed: [40, 41] },
    });
    expect(analysed).toEqual(['tool_40_b', 'tool_41_b']);
    const fresh = await createBm25Ranker().index(second.map((tool) => ({ ...tool })));
    for (const query of ['read files', 'send messages 40', 'tool_3', 'list the files 41']) {
      expect(await index.search(query, 60), query).toEqual(await fresh.search(query, 60));
    }
  });
});
