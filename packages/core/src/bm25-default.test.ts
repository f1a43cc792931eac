import { describe, expect, it } from 'vitest';
import { createFieldBm25Ranker } from './bm25-default.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

describe('createFieldBm25Ranker', () => {
  it('reads a tool replaced at the same position, and keeps the others, on a new index', () => {
    const ranker = createFieldBm25Ranker();
    const first = [
      tool('weather__forecast', 'Gets the weather forecast for a city'),
      tool('mail__send', 'Sends an email message'),
      tool('files__read', 'Reads a file from disk'),
    ];
    expect(ranker.index(first).search('weather forecast', 1)[0]?.name).toBe('weather__forecast');
    const second = [...first];
    second[0] = tool('weather__forecast', 'Converts currencies at the daily exchange rate');
    const index = ranker.index(second);
    expect(index.search('exchange rate', 1)[0]?.name).toBe('weather__forecast');
    expect(index.search('email message', 1)[0]?.name).toBe('mail__send');
    expect(index.search('forecast city', 3).map((hit) => hit.name)).not.toContain('mail__send');
  });

  it('ranks a tool first when the query is its name or its bare name, in any case', () => {
    const ranker = createFieldBm25Ranker();
    const tools = [
      tool('github__create_issue', 'Opens an issue in a repository'),
      tool('gitlab__create_issue', 'Opens an issue in a project'),
      tool('notes__write', 'Writes an issue note about create issue'),
    ];
    const index = ranker.index(tools);
    expect(index.search('GitHub Create-Issue', 3)[0]?.name).toBe('github__create_issue');
    expect(
      index
        .search('create issue', 3)
        .slice(0, 2)
        .map((hit) => hit.name),
    ).toEqual(['github__create_issue', 'gitlab__create_issue']);
  });
});
