import { createRequire } from 'node:module';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import type { ToolDefinition } from '@tool-search/core';
import MiniSearch from 'minisearch';
import type { PeerName } from './options.js';

/** A built index: answers a top-k query. */
export interface BuiltIndex {
  /** Top `limit` names for a query (a promise only when the library is asynchronous). */
  search(query: string, limit: number): unknown;
}

/** One peer library, prepared the way its documentation recommends. */
export interface Peer {
  readonly id: PeerName;
  /** What was configured, for the report. */
  readonly setup: string;
  /** Builds the index over the tools (including turning tools into documents). */
  build(tools: readonly ToolDefinition[]): BuiltIndex | Promise<BuiltIndex>;
  /** The fewest tools the library accepts. */
  readonly minTools: number;
}

/** The text every peer indexes, in the same three fields. */
interface PeerDocument {
  id: number;
  name: string;
  description: string;
  parameters: string;
}

const BOOSTS = { name: 3, description: 1, parameters: 0.5 } as const;

function splitIdentifier(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_.\-:/]+/g, ' ');
}

function parameterText(tool: ToolDefinition): string {
  const properties = tool.inputSchema?.properties;
  if (typeof properties !== 'object' || properties === null) return '';
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    parts.push(splitIdentifier(name));
    const description = (schema as { description?: unknown } | null)?.description;
    if (typeof description === 'string') parts.push(description);
  }
  return parts.join(' ');
}

/**
 * Peer documents: name (identifiers split: orama keeps underscores inside tokens and
 * no library splits camelCase), description, and parameter names with their descriptions.
 */
export function toPeerDocuments(tools: readonly ToolDefinition[]): PeerDocument[] {
  return tools.map((tool, id) => ({
    id,
    name: splitIdentifier(tool.name),
    description: tool.description ?? '',
    parameters: parameterText(tool),
  }));
}

/** Common English stop words, dropped from minisearch queries in the `minisearch-stop` variant. */
const QUERY_STOP_WORDS = new Set(
  (
    'a about all an and any are as at be by can could do does for from get how i in is it its me my ' +
    'of on or please show some that the their them there these this to up use want what when where ' +
    'which who will with would you your'
  ).split(' '),
);

function createMiniSearchPeer(dropStopWords: boolean): Peer {
  return {
    id: dropStopWords ? 'minisearch-stop' : 'minisearch',
    setup: dropStopWords
      ? 'minisearch, same as above, query stop words dropped (processTerm)'
      : 'minisearch 7: fields name, description, parameters; storeFields []; boost name 3, parameters 0.5; top 5 = search().slice(0, 5)',
    minTools: 1,
    build(tools) {
      const index = new MiniSearch<PeerDocument>({
        idField: 'id',
        fields: ['name', 'description', 'parameters'],
        storeFields: [],
        searchOptions: {
          boost: { name: BOOSTS.name, parameters: BOOSTS.parameters },
          ...(dropStopWords
            ? {
                processTerm: (term: string) => {
                  const lower = term.toLowerCase();
                  return QUERY_STOP_WORDS.has(lower) ? null : lower;
                },
              }
            : {}),
        },
      });
      index.addAll(toPeerDocuments(tools));
      // minisearch has no top-k: it scores and sorts every match.
      return { search: (query, limit) => index.search(query).slice(0, limit) };
    },
  };
}

function createOramaPeer(): Peer {
  return {
    id: 'orama',
    setup:
      'orama 3: schema name, description, parameters (string); boost name 3, parameters 0.5; limit 5; defaults otherwise (prefix matching)',
    minTools: 1,
    async build(tools) {
      const db = create({
        schema: {
          id: 'string',
          name: 'string',
          description: 'string',
          parameters: 'string',
        } as const,
      });
      const documents = toPeerDocuments(tools).map((document) => ({
        ...document,
        id: String(document.id),
      }));
      await insertMultiple(db, documents);
      return {
        search: (query, limit) =>
          oramaSearch(db, {
            term: query,
            properties: ['name', 'description', 'parameters'],
            boost: { name: BOOSTS.name, parameters: BOOSTS.parameters },
            limit,
          }),
      };
    },
  };
}

interface WinkBm25Engine {
  defineConfig(config: { fldWeights: Record<string, number> }): boolean;
  definePrepTasks(tasks: ((text: string) => string[])[], field?: string): number;
  addDoc(document: Record<string, string>, id: number): number;
  consolidate(): boolean;
  search(text: string, limit?: number): [string, number][];
}

interface WinkToken {
  out(item: unknown): string | boolean;
}
interface WinkNlp {
  readDoc(text: string): {
    tokens(): { filter(f: (t: WinkToken) => boolean): { each(f: (t: WinkToken) => void): void } };
  };
  its: { type: unknown; stopWordFlag: unknown; negationFlag: unknown; stem: unknown };
}

/**
 * wink-bm25-text-search with the preparation of its README: wink-nlp tokens, words
 * only, stop words dropped, negation marked, stems. wink-nlp and its model are the
 * library's own dependencies (loaded from its folder), loaded once outside timing.
 */
function createWinkPeer(): Peer {
  const require = createRequire(import.meta.url);
  const libraryRequire = createRequire(require.resolve('wink-bm25-text-search'));
  const bm25 = libraryRequire('wink-bm25-text-search') as () => WinkBm25Engine;
  let prepare: ((text: string) => string[]) | undefined;
  const prepTask = (): ((text: string) => string[]) => {
    if (prepare === undefined) {
      const winkNLP = libraryRequire('wink-nlp') as (model: unknown) => WinkNlp;
      const nlp = winkNLP(libraryRequire('wink-eng-lite-web-model'));
      const its = nlp.its;
      prepare = (text) => {
        const tokens: string[] = [];
        nlp
          .readDoc(text)
          .tokens()
          .filter((t) => t.out(its.type) === 'word' && !t.out(its.stopWordFlag))
          .each((t) =>
            tokens.push(t.out(its.negationFlag) ? `!${t.out(its.stem)}` : String(t.out(its.stem))),
          );
        return tokens;
      };
    }
    return prepare;
  };
  return {
    id: 'wink-bm25',
    setup:
      'wink-bm25-text-search 3: README preparation (wink-nlp words, stop words dropped, negation, stems); fldWeights name 3, description 1, parameters 0.5; search(query, 5)',
    minTools: 3,
    build(tools) {
      const engine = bm25();
      engine.defineConfig({ fldWeights: { ...BOOSTS } });
      engine.definePrepTasks([prepTask()]);
      for (const document of toPeerDocuments(tools)) {
        const { id, ...fields } = document;
        engine.addDoc(fields, id);
      }
      // Takes no additions afterwards: a changed list means a new engine.
      engine.consolidate();
      return { search: (query, limit) => engine.search(query, limit) };
    },
  };
}

export function createPeer(name: PeerName): Peer {
  switch (name) {
    case 'minisearch':
      return createMiniSearchPeer(false);
    case 'minisearch-stop':
      return createMiniSearchPeer(true);
    case 'orama':
      return createOramaPeer();
    case 'wink-bm25':
      return createWinkPeer();
  }
}
