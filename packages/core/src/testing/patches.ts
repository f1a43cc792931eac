// The patch check of `testRanker` for a v2 ranker: random sequences of tool lists, each
// step adding, removing, changing or moving tools, indexed with the previous index (and
// the change, when tools were replaced in place) and compared with a fresh index over
// copies of the same tools, query by query.

import type { RankedTool, RankerIndex, RankerV2 } from '../rankers/ranker.js';
import { createToolList, patchToolList, type ToolList } from '../tool-list.js';
import type { ToolDefinition } from '../types.js';

/** A small seeded generator (mulberry32): the same seed, the same sequences. */
function generator(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

type Step = 'add' | 'remove' | 'change' | 'replace' | 'move';
const STEPS: readonly Step[] = ['add', 'remove', 'change', 'replace', 'move'];

/** The words of the tools' names and descriptions, for queries that hit something. */
function vocabulary(tools: readonly ToolDefinition[]): string[] {
  const words = new Set<string>();
  for (const tool of tools) {
    for (const word of `${tool.name} ${tool.description ?? ''}`.split(/[^A-Za-z0-9]+/)) {
      if (word.length > 2) words.add(word.toLowerCase());
    }
  }
  return [...words].sort();
}

/** One step of a sequence: the next tools, and the positions replaced in place (same length). */
function nextTools(
  tools: readonly ToolDefinition[],
  pool: readonly ToolDefinition[],
  words: readonly string[],
  random: (below: number) => number,
): { tools: ToolDefinition[]; changed: number[] | undefined } {
  const next = [...tools];
  const unused = pool.filter((tool) => !next.some((held) => held.name === tool.name));
  const step = STEPS[random(STEPS.length)]!;
  const count = 1 + random(3);
  if (step === 'change' || step === 'replace') {
    const changed = new Set<number>();
    for (let k = 0; k < count && next.length > 0; k++) {
      const at = random(next.length);
      const spare = unused.pop();
      if (step === 'replace' && spare !== undefined) next[at] = spare;
      else {
        const word = words[random(words.length)] ?? 'changed';
        next[at] = { ...next[at]!, description: `${next[at]!.description ?? ''} ${word}` };
      }
      changed.add(at);
    }
    return { tools: next, changed: [...changed].sort((a, b) => a - b) };
  }
  for (let k = 0; k < count; k++) {
    if (step === 'add') {
      const spare = unused.pop();
      if (spare !== undefined) next.splice(random(next.length + 1), 0, spare);
    } else if (step === 'remove' && next.length > 0) {
      next.splice(random(next.length), 1);
    } else if (step === 'move' && next.length > 1) {
      const [moved] = next.splice(random(next.length), 1);
      next.splice(random(next.length + 1), 0, moved!);
    }
  }
  return { tools: next, changed: undefined };
}

async function answers(
  index: RankerIndex,
  queries: readonly string[],
): Promise<(readonly RankedTool[])[]> {
  const result: (readonly RankedTool[])[] = [];
  for (const query of queries) result.push(await index.search(query, 10));
  return result;
}

/**
 * Checks that a v2 ranker's patched indexes answer exactly as fresh ones.
 *
 * @param ranker - the v2 ranker
 * @param pool - the tools the lists are drawn from, names unique
 * @param options.runs - how many sequences
 * @param options.seed - their seed
 * @param options.check - compares a patched answer with a fresh one (an assertion)
 * @returns when every sequence is checked
 * @throws what `check` throws
 * @internal
 */
export async function checkPatchedIndexes(
  ranker: RankerV2,
  pool: readonly ToolDefinition[],
  options: {
    runs: number;
    seed: number;
    check: (patched: unknown, fresh: unknown, context: string) => void;
  },
): Promise<void> {
  const random = generator(options.seed);
  const words = vocabulary(pool);
  for (let run = 0; run < options.runs; run++) {
    const queries = Array.from({ length: 4 }, () =>
      Array.from({ length: 1 + random(3) }, () => words[random(words.length)] ?? '').join(' '),
    );
    const start = pool.filter(() => random(3) > 0);
    let list: ToolList = createToolList(start);
    let index = await ranker.index(list.tools);
    for (let step = 0; step < 6; step++) {
      const before = await answers(index, queries);
      const next = nextTools(list.tools, pool, words, random);
      const nextList =
        next.changed === undefined
          ? createToolList(next.tools)
          : patchToolList(list, next.tools, next.changed);
      const patched = await ranker.index(nextList.tools, {
        previous: index,
        ...(nextList.change === undefined ? {} : { change: nextList.change }),
      });
      // Copies: no tool object is shared with an earlier list, so nothing can be reused.
      const fresh = await ranker.index(nextList.tools.map((tool) => ({ ...tool })));
      const context = `run ${run}, step ${step}, queries ${JSON.stringify(queries)}`;
      options.check(await answers(patched, queries), await answers(fresh, queries), context);
      options.check(await answers(index, queries), before, `${context}: the previous index`);
      list = nextList;
      index = patched;
    }
  }
}
