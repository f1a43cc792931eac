import type { RankedTool, Ranker, ToolDefinition } from '@tool-search/core';
import { jsonSchema, type Tool, tool, toolSearch } from 'ai';
import { createToolSearchState } from 'ai/internal';

/** The name of the search tool inside the AI SDK tool set (kept out of the catalog's names). */
const SEARCH_TOOL = '__ai_sdk_tool_search__';

type SearchExecute = (
  input: { query: string },
  options: unknown,
) => Promise<{ tools: { name: string }[] }>;

/**
 * AI SDK 7's default tool search (`toolSearch()` without a `search` callback) as a
 * `Ranker`: the real implementation, run through the SDK's own search state
 * (`createToolSearchState` from `ai/internal`, the code `generateText` binds the search
 * tool with). It scores keyword overlap: each distinct query word found in a tool's
 * name adds 2, in its description 1 (camelCase split, lowercased Unicode word runs);
 * ties keep catalog order; tools scoring 0 are not returned.
 *
 * @returns a ranker whose index answers through the SDK's search tool, asked for `limit` results
 * @throws nothing itself; the SDK throws if a catalog name collides with its search tool's
 */
export function createAiSdkRanker(): Ranker {
  return {
    specificationVersion: 'v1',
    id: 'ai-sdk',
    index(tools: readonly ToolDefinition[]) {
      // One search state per limit: the SDK fixes maxResults when the search tool is made.
      const byLimit = new Map<number, SearchExecute>();
      const deferred: Record<string, Tool> = {};
      for (const definition of tools) {
        deferred[definition.name] = tool({
          description: definition.description ?? '',
          inputSchema: jsonSchema({ type: 'object', properties: {} }),
          deferLoading: true,
        });
      }
      const searchFor = (limit: number): SearchExecute => {
        let execute = byLimit.get(limit);
        if (execute === undefined) {
          const set = { ...deferred, [SEARCH_TOOL]: toolSearch({ maxResults: limit }) };
          const active = createToolSearchState({ tools: set, toolCallers: undefined })(
            set,
          ) as Record<string, Tool>;
          execute = active[SEARCH_TOOL]!.execute as unknown as SearchExecute;
          byLimit.set(limit, execute);
        }
        return execute;
      };
      return {
        async search(query: string, limit: number): Promise<RankedTool[]> {
          if (query.trim() === '' || !(limit >= 1)) return [];
          const { tools: found } = await searchFor(Math.floor(limit))(
            { query },
            { toolCallId: 'eval', messages: [] },
          );
          // The SDK returns names only, best first: scores stand for the rank.
          return found.map((hit, rank) => ({ name: hit.name, score: found.length - rank }));
        },
      };
    },
  };
}
