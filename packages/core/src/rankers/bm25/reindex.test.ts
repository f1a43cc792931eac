import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformanceTools } from '../../testing/fixtures.js';
import type { ToolDefinition } from '../../types.js';
import type { Ranker } from '../ranker.js';
import { createBm25Ranker } from './index.js';

// An index a ranker derives from the lists it indexed before (vectors copied from its
// last index, memoized per tool object, cached lists) must rank exactly as an index
// built from nothing over the same list: collection statistics, tie order, the
// fallback, exact names, the group boost and proximity included.

type Edit =
  | { kind: 'add'; source: number; at: number }
  | { kind: 'remove'; at: number }
  | { kind: 'describe'; at: number; text: number }
  | { kind: 'rename'; at: number }
  | { kind: 'schema'; at: number }
  | { kind: 'move'; from: number; to: number }
  // The tool replaced in place by one of another toolset (its group changes).
  | { kind: 'toolset'; at: number; to: number };

const TEXTS = [
  'List the files in a directory',
  'Search repositories and issues',
  'Create a new issue in a repository',
  'Send a message to a channel',
  '',
];

const QUERIES = [
  'create a github issue',
  'search files in a directory',
  'send a slack message to a channel',
  'github_create_issue',
  'use `read_file` to read',
  'github',
  'list',
  'ack',
  'directory tree',
  'get the contents of a file',
  'repository',
  'nothing matches zzqx',
];

/** Queries whose full ranked list is compared (they match many tools). */
const BROAD = ['repository', 'file', 'search list create get'];

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    source: fc.nat(conformanceTools.length - 1),
    at: fc.nat(),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('describe' as const),
    at: fc.nat(),
    text: fc.nat(TEXTS.length - 1),
  }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('schema' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('toolset' as const), at: fc.nat(), to: fc.nat() }),
);

let serial = 0;

/** The list after one edit: edited tools are new objects, the others the same ones. */
function apply(list: readonly ToolDefinition[], change: Edit): ToolDefinition[] {
  const next = [...list];
  const n = next.length;
  switch (change.kind) {
    case 'add': {
      const source = conformanceTools[change.source]!;
      next.splice(change.at % (n + 1), 0, { ...source, name: `${source.name}_${++serial}` });
      return next;
    }
    case 'remove':
      if (n > 0) next.splice(change.at % n, 1);
      return next;
    case 'describe':
      if (n > 0)
        next[change.at % n] = { ...next[change.at % n]!, description: TEXTS[change.text]! };
      return next;
    case 'rename':
      if (n > 0) {
        const tool = next[change.at % n]!;
        next[change.at % n] = { ...tool, name: `${tool.name}_renamed_${++serial}` };
      }
      return next;
    case 'schema':
      if (n > 0) {
        const tool = next[change.at % n]!;
        next[change.at % n] = {
          ...tool,
          inputSchema: {
            type: 'object',
            properties: { directory: { type: 'string', description: 'The directory to list' } },
          },
        };
      }
      return next;
    case 'toolset':
      if (n > 0) {
        const tool = next[change.at % n]!;
        // Another tool's toolset (its group), or a toolset no tool had.
        const other = next[change.to % n]!.toolset;
        const toolset = other === tool.toolset ? `moved-${++serial}` : other;
        next[change.at % n] = { ...tool, ...(toolset === undefined ? {} : { toolset }) };
      }
      return next;
    case 'move':
      if (n > 0) {
        const [tool] = next.splice(change.from % n, 1);
        next.splice(change.to % n, 0, tool!);
      }
      return next;
  }
}

/** Every ranked list of the queries, names and scores, as one comparable text. */
async function rankings(ranker: Ranker, tools: readonly ToolDefinition[]): Promise<string> {
  const index = await ranker.index(tools);
  const lines: string[] = [];
  for (const query of QUERIES) {
    for (const limit of [1, 5]) {
      const hits = await index.search(query, limit);
      lines.push(`${query}@${limit}: ${hits.map((hit) => `${hit.name}=${hit.score}`).join(' ')}`);
    }
  }
  for (const query of BROAD) {
    const hits = await index.search(query, Math.max(1, tools.length));
    lines.push(`${query}@all: ${hits.map((hit) => `${hit.name}=${hit.score}`).join(' ')}`);
  }
  return lines.join('\n');
}

/** A deep copy: tool objects no ranker and no memo has seen. */
function fresh(tools: readonly ToolDefinition[]): ToolDefinition[] {
  return tools.map((tool) => structuredClone(tool));
}

describe.each(['default', 'spec'] as const)('createBm25Ranker, preset %s', (preset) => {
  it('ranks a list derived from earlier lists exactly as a fresh build over it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(edit, { maxLength: 6 }), { maxLength: 6 }),
        async (rounds) => {
          const ranker = createBm25Ranker({ preset });
          let list: ToolDefinition[] = [...conformanceTools];
          await ranker.index(list);
          const history = [list];
          for (const round of rounds) {
            for (const change of round) list = apply(list, change);
            history.push(list);
            const derived = await rankings(ranker, list);
            const built = await rankings(createBm25Ranker({ preset }), fresh(list));
            expect(derived).toBe(built);
          }
          // A list seen before (from the index cache or the memo) ranks as it did then.
          const earlier = history[Math.max(0, history.length - 3)]!;
          expect(await rankings(ranker, earlier)).toBe(
            await rankings(createBm25Ranker({ preset }), fresh(earlier)),
          );
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('createBm25Ranker, a patched index with groups of equal scores', () => {
  const twin = (toolset: string, name: string): ToolDefinition => ({
    name,
    description: 'Archive the quarterly ledger report.',
    inputSchema: { type: 'object' },
    source: 'mcp',
    toolset,
  });

  it('lifts the same groups as a fresh build when a new group arrives before the others', async () => {
    const ranker = createBm25Ranker();
    const first = Array.from({ length: 7 }, (_, i) =>
      twin(`set-${i + 1}`, `archive_ledger_${i + 1}`),
    );
    await ranker.index(first);
    // A new group in front: a fresh build numbers it first, a patch last.
    const second = [twin('set-0', 'archive_ledger_0'), ...first];
    const patched = await (await ranker.index(second)).search('archive ledger', 8);
    const built = await (await createBm25Ranker().index(fresh(second))).search('archive ledger', 8);
    expect(patched).toEqual(built);
  });
});
