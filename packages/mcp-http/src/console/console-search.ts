import {
  type Analyzer,
  createCatalog,
  type Ranker,
  type SearchLearner,
  type ToolDefinition,
} from '@tool-search/core';
import type { GatewayProfile } from '@tool-search/mcp/config';
import { scopeTools, type ToolsetRegistry } from '@tool-search/toolsets';

/** One ranked hit with why it ranked: the query's terms found in each field. */
export interface ConsoleSearchHit {
  name: string;
  score: number;
  toolset?: string;
  description: string;
  /** Field → the query terms (as analyzed) found in it. */
  matched: Record<'name' | 'description' | 'parameters', string[]>;
  /** Terms learned from use that matched (empty until learning is on). */
  learned: string[];
}

function parameterText(tool: ToolDefinition): string {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
  return Object.keys(properties ?? {}).join(' ');
}

/**
 * The hits a profile's sessions would get from `tool_search` for a query, with the query
 * terms each field of each hit matched.
 *
 * @param options.tools - the pool's tools
 * @param options.profile - the profile whose scope applies, if any
 * @param options.registry - the config's toolsets
 * @param options.ranker - the gateway's ranker @defaultValue core's default
 * @param options.analyzer - splits text into terms, as the ranker does
 * @param options.learner - the gateway's learner: hits rank with the profile's learned terms
 * @param options.profileName - the profile's name, for its learned terms
 * @param options.query - the query
 * @param options.limit - how many hits
 * @returns the hits, best first
 * @throws nothing for a valid ranker
 */
export async function consoleSearch(options: {
  tools: readonly ToolDefinition[];
  profile: GatewayProfile | undefined;
  registry: ToolsetRegistry;
  ranker: Ranker | undefined;
  analyzer: Analyzer;
  learner?: SearchLearner;
  profileName?: string | undefined;
  query: string;
  limit: number;
}): Promise<ConsoleSearchHit[]> {
  const { learner, profileName } = options;
  const { profile, analyzer } = options;
  const scoped = scopeTools(
    options.tools,
    {
      ...(profile?.enabledToolsets === undefined
        ? {}
        : { enabledToolsets: profile.enabledToolsets }),
      ...(profile?.disabledToolsets === undefined
        ? {}
        : { disabledToolsets: profile.disabledToolsets }),
    },
    options.registry,
  );
  const catalog = createCatalog(scoped, {
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
    ...(learner === undefined ? {} : { learner }),
    ...(profileName === undefined ? {} : { profile: profileName }),
  });
  const hits = await catalog.search(options.query, { limit: options.limit });
  const terms = [...new Set(analyzer.analyze(options.query))];
  const found = (text: string) => {
    const have = new Set(analyzer.analyze(text));
    return terms.filter((term) => have.has(term));
  };
  const learnedTerms = learner === undefined ? undefined : await learner.learnedTerms(profileName);
  const queryTerms = learner === undefined ? [] : [...new Set(learner.analyze(options.query))];
  return hits.map((hit) => {
    const tool = catalog.get(hit.name);
    const learned = learnedTerms?.get(hit.name);
    return {
      name: hit.name,
      score: hit.score,
      ...(hit.toolset === undefined ? {} : { toolset: hit.toolset }),
      description: hit.description,
      matched: {
        name: found(hit.name),
        description: found(tool?.description ?? ''),
        parameters: tool === undefined ? [] : found(parameterText(tool)),
      },
      learned:
        learned === undefined ? [] : queryTerms.filter((term) => learned[term] !== undefined),
    };
  });
}
