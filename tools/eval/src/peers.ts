import { create, insertMultiple, search } from '@orama/orama';
import type { RankedTool, Ranker, ToolDefinition } from '@tool-search/core';
import MiniSearch from 'minisearch';

/** The text fields a peer library indexes: what a user would feed it. */
interface PeerDocument {
  id: string;
  name: string;
  description: string;
  parameters: string;
}

/** Field boosts for the peers: the name matters most, parameters least. */
export const PEER_BOOSTS = { name: 3, description: 1, parameters: 0.5 } as const;

function parameterText(tool: ToolDefinition): string {
  const properties = tool.inputSchema?.properties;
  if (!properties || typeof properties !== 'object') return '';
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    parts.push(name);
    const description = (schema as { description?: unknown } | null)?.description;
    if (typeof description === 'string') parts.push(description);
  }
  return parts.join(' ');
}

function toDocument(tool: ToolDefinition, index: number): PeerDocument {
  return {
    id: String(index),
    // Both libraries tokenise on spaces and punctuation; orama keeps `_` inside tokens.
    name: tool.name.replace(/[_.\-:/]+/g, ' '),
    description: tool.description ?? '',
    parameters: parameterText(tool),
  };
}

/** minisearch 7 over name / description / parameters, OR of the query words, boosted fields. */
export function createMiniSearchRanker(): Ranker {
  return {
    specificationVersion: 'v1',
    id: 'minisearch',
    index(tools) {
      const engine = new MiniSearch<PeerDocument>({
        fields: ['name', 'description', 'parameters'],
      });
      engine.addAll(tools.map(toDocument));
      return {
        search(query, limit): RankedTool[] {
          return engine
            .search(query, { boost: { ...PEER_BOOSTS }, combineWith: 'OR' })
            .slice(0, limit)
            .map((hit) => ({ name: tools[Number(hit.id)]!.name, score: hit.score }));
        },
      };
    },
  };
}

/** @orama/orama 3 full-text search over the same fields and boosts (its defaults otherwise). */
export function createOramaRanker(): Ranker {
  return {
    specificationVersion: 'v1',
    id: 'orama',
    async index(tools) {
      const db = create({
        schema: { name: 'string', description: 'string', parameters: 'string' } as const,
      });
      await insertMultiple(db, tools.map(toDocument));
      return {
        async search(query, limit) {
          if (query.trim() === '') return [];
          const result = await search(db, {
            term: query,
            properties: ['name', 'description', 'parameters'],
            boost: { ...PEER_BOOSTS },
            limit,
          });
          return result.hits
            .filter((hit) => hit.score > 0)
            .map((hit) => ({ name: tools[Number(hit.id)]!.name, score: hit.score }));
        },
      };
    },
  };
}
