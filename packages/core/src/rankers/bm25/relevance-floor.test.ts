import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '../../errors.js';
import { conformanceTools } from '../../testing/fixtures.js';
import type { ToolDefinition } from '../../types.js';
import type { RankedTool } from '../ranker.js';
import { createBm25Ranker } from './index.js';
import type { RelevanceFloor } from './relevance-floor.js';

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  toolset: 'workspace',
});

// Six tools of one toolset; each of `run shell command execute code` is in exactly one.
const workspace: ToolDefinition[] = [
  tool('slack_send_message', 'Send a message to a Slack channel.'),
  tool('jobs_run_job', 'Run a scheduled job now.'),
  tool('terminal_get_shell', 'Tell which login shell a user has.'),
  tool('palette_list_commands', "List the editor's palette commands."),
  tool('sql_execute_query', 'Execute a read-only SQL query.'),
  tool('repo_search_code', 'Search source code in a repository.'),
];

const search = async (
  tools: readonly ToolDefinition[],
  query: string,
  relevanceFloor: boolean | Partial<RelevanceFloor>,
  limit = 5,
): Promise<readonly RankedTool[]> =>
  (await createBm25Ranker({ relevanceFloor }).index(tools)).search(query, limit);

const names = (hits: readonly RankedTool[]): string[] => hits.map((hit) => hit.name);

describe('createBm25Ranker({ relevanceFloor })', () => {
  it('answers "send message" with the one tool that fits, not its siblings', async () => {
    const padded = await search(workspace, 'send message', false);
    expect(padded.length).toBe(5);
    expect(names(await search(workspace, 'send message', true))).toEqual(['slack_send_message']);
  });

  it('answers nothing when every word is in some tool but no tool holds two of them', async () => {
    const query = 'run shell command execute code';
    expect((await search(workspace, query, false)).length).toBe(5);
    expect(await search(workspace, query, true)).toEqual([]);
  });

  it('keeps a tool the query names exactly, even when nothing fits', async () => {
    // A floor nothing can pass: only the exact-name rule can answer.
    const strict = { minWords: 10, fitCoverage: 1, minCoverage: 1 };
    expect(await search(workspace, 'execute a query on friday', strict)).toEqual([]);
    expect(names(await search(workspace, "use 'sql_execute_query' on friday", strict))).toEqual([
      'sql_execute_query',
    ]);
  });

  it('is off unless asked for: the default preset answers with every match', async () => {
    const hits = await (await createBm25Ranker().index(workspace)).search('send message', 5);
    expect(hits.length).toBe(5);
  });

  it('keeps the scores and the order of the hits that pass, dropping only others', async () => {
    const queries = [
      'send a message to a slack channel',
      'search github repositories for a query',
      'read a file from disk and write it back',
      'find the directions between two places on a map',
      'create an entity with observations in the knowledge graph',
      'list the open pull requests and their reviews',
      'weather in paris tomorrow',
    ];
    const free = await createBm25Ranker().index(conformanceTools);
    const floored = await createBm25Ranker({ relevanceFloor: true }).index(conformanceTools);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...queries),
        fc.integer({ min: 1, max: 10 }),
        async (query, limit) => {
          const all = await free.search(query, conformanceTools.length);
          const kept = await floored.search(query, limit);
          const passing = all.filter((hit) => kept.some((k) => k.name === hit.name));
          expect(kept).toEqual(passing.slice(0, kept.length));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answers queries that fit the catalog', async () => {
    const floored = await createBm25Ranker({ relevanceFloor: true }).index(conformanceTools);
    expect(names(await floored.search('send a message to a slack channel', 3))).toContain(
      'slack_post_message',
    );
    expect(names(await floored.search('search github repositories', 3))[0]).toBe(
      'github_search_repositories',
    );
  });

  it('rejects a setting out of range with invalid_argument', () => {
    for (const bad of [{ minCoverage: 2 }, { minWords: 1.5 }, { weakFieldCredit: -1 }]) {
      let caught: unknown;
      try {
        createBm25Ranker({ relevanceFloor: bad });
      } catch (error) {
        caught = error;
      }
      expect(ToolSearchError.isInstance(caught)).toBe(true);
      expect((caught as ToolSearchError).code).toBe('invalid_argument');
    }
  });
});
