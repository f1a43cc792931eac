import { describe, expect, it } from 'vitest';
import { conformanceTools } from '../../testing/fixtures.js';
import type { ToolDefinition } from '../../types.js';
import type { RankedTool, Ranker } from '../ranker.js';
import { createFieldBm25Ranker } from './field-ranker.js';

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

const names = async (
  ranker: Ranker,
  tools: readonly ToolDefinition[],
  query: string,
  limit: number,
): Promise<string[]> =>
  (await (await ranker.index(tools)).search(query, limit)).map((hit) => hit.name);

describe('createFieldBm25Ranker', () => {
  it('reads a tool replaced at the same position, and keeps the others, on a new index', async () => {
    const ranker = createFieldBm25Ranker();
    const first = [
      tool('weather__forecast', 'Gets the weather forecast for a city'),
      tool('mail__send', 'Sends an email message'),
      tool('files__read', 'Reads a file from disk'),
    ];
    expect(await names(ranker, first, 'weather forecast', 1)).toEqual(['weather__forecast']);
    const second = [...first];
    second[0] = tool('weather__forecast', 'Converts currencies at the daily exchange rate');
    expect(await names(ranker, second, 'exchange rate', 1)).toEqual(['weather__forecast']);
    expect(await names(ranker, second, 'email message', 1)).toEqual(['mail__send']);
    expect(await names(ranker, second, 'city', 3)).toEqual([]);
  });

  it('ranks a tool first when the query is its name or its bare name, in any case', async () => {
    const ranker = createFieldBm25Ranker();
    const tools = [
      tool('github__create_issue', 'Opens an issue in a repository'),
      tool('gitlab__create_issue', 'Opens an issue in a project'),
      tool('notes__write', 'Writes an issue note about create issue'),
    ];
    expect(await names(ranker, tools, 'GitHub Create-Issue', 1)).toEqual(['github__create_issue']);
    expect((await names(ranker, tools, 'create issue', 3)).slice(0, 2)).toEqual([
      'github__create_issue',
      'gitlab__create_issue',
    ]);
  });

  it('answers from reused vectors exactly as from a fresh analysis, on every rebuild path', async () => {
    const queries = ['read a file', 'send an email message', 'weather forecast', 'create issue'];
    const results = async (ranker: Ranker, tools: readonly ToolDefinition[]) => {
      const index = await ranker.index(tools);
      const out: (readonly RankedTool[])[] = [];
      for (const query of queries) out.push(await index.search(query, 10));
      return out;
    };
    const fresh = (tools: readonly ToolDefinition[]) =>
      results(createFieldBm25Ranker(), structuredClone(tools as ToolDefinition[]));
    const base = structuredClone(conformanceTools as ToolDefinition[]);
    const changed = [...base];
    changed[1] = { ...base[1]!, description: 'Sends weather forecasts by email' };
    const lists = [
      base,
      changed,
      [tool('zz__new', 'Reads a new file'), ...changed],
      [...changed].reverse(),
      changed.slice(2),
      base,
    ];
    const ranker = createFieldBm25Ranker();
    const other = createFieldBm25Ranker({ k1: 1.2 });
    for (const list of lists) {
      expect(await results(ranker, list)).toEqual(await fresh(list));
      // Another ranker of the same analysis finds the vectors through the shared memo.
      expect(await results(other, [...list].reverse())).toEqual(
        await results(createFieldBm25Ranker({ k1: 1.2 }), structuredClone([...list].reverse())),
      );
    }
  });
});
