import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '../../errors.js';
import { conformanceTools, testRanker } from '../../testing/index.js';
import type { ToolDefinition } from '../../types.js';
import { createBm25Ranker } from './index.js';
import { DEFAULT_BM25_TUNING } from './tuning.js';

testRanker(createBm25Ranker({ preset: 'spec' }));
testRanker(createBm25Ranker());

const tool = (
  name: string,
  description = '',
  extra: Partial<ToolDefinition> = {},
): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});

const ranker = createBm25Ranker();
const names = async (tools: readonly ToolDefinition[], query: string, limit = 5) =>
  (await (await ranker.index(tools)).search(query, limit)).map((hit) => hit.name);

describe("createBm25Ranker() (the 'default' preset)", () => {
  it('has the id bm25:default, and bm25:default:tuned once tuned', () => {
    expect(ranker.id).toBe('bm25:default');
    expect(createBm25Ranker({ k1: 1 }).id).toBe('bm25:default:tuned');
  });

  it('ranks github_create_issue first for "create a github issue"', async () => {
    expect((await names(conformanceTools, 'create a github issue'))[0]).toBe('github_create_issue');
  });

  it('finds tools through split identifiers and stems', async () => {
    const tools = [
      tool('ResearchHelper', 'Scholarly tools'),
      tool('get_weather', 'Current conditions'),
      tool('other', 'Nothing relevant'),
    ];
    expect((await names(tools, 'research'))[0]).toBe('ResearchHelper');
    expect((await names(tools, 'helpers for researching'))[0]).toBe('ResearchHelper');
    expect((await names(tools, 'weathers'))[0]).toBe('get_weather');
  });

  it('weighs the name above the description', async () => {
    const tools = [
      tool('notes_append', 'Adds text to a calendar entry'),
      tool('calendar_create', 'Creates an entry'),
    ];
    expect((await names(tools, 'calendar'))[0]).toBe('calendar_create');
  });

  it('searches parameter names, parameter descriptions and enum values', async () => {
    const tools = [
      tool('convert', 'Converts', {
        inputSchema: {
          type: 'object',
          properties: {
            temperatureUnit: {
              type: 'string',
              description: 'Kelvin or Celsius',
              enum: ['fahrenheit'],
            },
          },
        },
      }),
      tool('other', 'Something else'),
    ];
    expect(await names(tools, 'temperature')).toEqual(['convert']);
    expect(await names(tools, 'kelvin')).toEqual(['convert']);
    expect(await names(tools, 'fahrenheit')).toEqual(['convert']);
  });

  it('finds a tool described in Chinese from a Chinese query', async () => {
    const tools = [
      tool('bing_search', '使用必应搜索指定的关键词，并返回搜索结果列表'),
      tool('get_weather', '获取天气预报'),
    ];
    expect((await names(tools, '搜索关键词'))[0]).toBe('bing_search');
    expect((await names(tools, '天气'))[0]).toBe('get_weather');
  });

  it('ranks an exact tool name first, whatever its case and separators', async () => {
    const tools = [
      tool('search_issues', 'Search issues and pull requests: search issues by text'),
      tool('search', 'Search'),
      tool('server__search_code', 'Search code'),
    ];
    expect((await names(tools, 'search issues'))[0]).toBe('search_issues');
    expect((await names(tools, 'SEARCH-ISSUES'))[0]).toBe('search_issues');
    expect((await names(tools, 'search_code'))[0]).toBe('server__search_code');
  });

  it('falls back to names containing the query when no term matches', async () => {
    expect(await names(conformanceTools, 'ost_mes')).toEqual(['slack_post_message']);
    expect(await names(conformanceTools, 'asdf qwerty foobar')).toEqual([]);
  });

  it('lifts the sibling tools of a strong match in the same toolset', async () => {
    const maps = { toolset: 'mcp-maps' };
    const tools = [
      tool('find_ev_charging_stations', 'Find EV charging stations near a place', maps),
      tool('geocode_address', 'Convert an address to coordinates', maps),
      tool('unrelated', 'Plays music'),
    ];
    const hits = await (await ranker.index(tools)).search('charging stations', 5);
    expect(hits.map((hit) => hit.name)).toEqual(['find_ev_charging_stations', 'geocode_address']);
    const off = createBm25Ranker({ groupBoost: 0 });
    const plain = await (await off.index(tools)).search('charging stations', 5);
    expect(plain.map((hit) => hit.name)).toEqual(['find_ev_charging_stations']);
  });

  it('expands queries with tool-vocabulary synonyms, and paths and URLs with their kind', async () => {
    const tools = [
      tool('write_file', 'Create or overwrite a file with new content'),
      tool('fetch_page', 'Fetch a URL and return its text'),
      tool('send_mail', 'Send mail to a recipient'),
      tool('weather', 'Forecast for a city'),
    ];
    expect((await names(tools, 'save the report'))[0]).toBe('write_file');
    expect((await names(tools, 'email my boss'))[0]).toBe('send_mail');
    expect((await names(tools, 'summarize /root/notes/today.md'))[0]).toBe('write_file');
    expect((await names(tools, 'summarize https://example.com/post'))[0]).toBe('fetch_page');
    const plain = createBm25Ranker({ synonyms: false });
    expect(await (await plain.index(tools)).search('save the report', 5)).toEqual([]);
    const custom = createBm25Ranker({ synonyms: { forecast: ['weather'] } });
    expect((await (await custom.index(tools)).search('weather outlook', 5))[0]!.name).toBe(
      'weather',
    );
  });

  it('looks for the WordNet relatives of the query words the catalog never uses', async () => {
    const tools = [
      tool('house_renting', 'Information about houses to rent'),
      tool('weather', 'Forecast for a city'),
    ];
    // Neither `apartment` nor `dwelling` is a word of the catalog; `housing` and
    // `house` are their relatives, and stem like the tool's words.
    expect(await names(tools, 'an apartment in Toronto')).toEqual(['house_renting']);
    expect(await names(tools, 'a dwelling near the lake')).toEqual(['house_renting']);
    const off = createBm25Ranker({ relatedWords: false });
    expect(await (await off.index(tools)).search('an apartment in Toronto', 5)).toEqual([]);
    // The analyzer must make stems: with lemmas the table does not apply.
    const lemmas = createBm25Ranker({ analyzer: { normalize: 'lemma' } });
    expect(await (await lemmas.index(tools)).search('an apartment in Toronto', 5)).toEqual([]);
  });

  it('never expands a query word that the catalog uses', async () => {
    const tools = [
      tool('house_renting', 'Information about houses to rent'),
      tool('apartment_photos', 'Photos of an apartment'),
    ];
    // `apartment` matches a tool as it is: its relatives (housing) are not looked for.
    expect(await names(tools, 'apartment')).toEqual(['apartment_photos']);
  });

  it('ranks the tools a query quotes as identifiers first, in the order quoted', async () => {
    const tools = [
      tool('sum_elements', 'Add up the numbers of a list'),
      tool('sort_list', 'Sort the elements of a list in ascending or descending order'),
      tool('filter_list', 'Filter the elements of a list by a condition'),
      tool('list_sorter', 'Sort, sort and sort a list of elements, sorted lists sorting'),
    ];
    const query = "sort the list in sorted order with 'sum_elements', then with sort_list";
    expect((await names(tools, query)).slice(0, 2)).toEqual(['sum_elements', 'sort_list']);
    expect((await names(tools, 'call github.create_issue', 2))[0]).not.toBe('sort_list');
    const off = createBm25Ranker({ exactNameFirst: false });
    const plain = await (await off.index(tools)).search(query, 5);
    expect(plain[0]!.name).not.toBe('sum_elements');
  });

  it('weighs the nouns of a request over its adjectives (wink-nlp part-of-speech tags)', async () => {
    // Each query word matches one tool, with the same field, length and idf: only the
    // part of speech of the word tells them apart.
    const tools = [tool('recent_items', 'Lists items'), tool('invoices_list', 'Lists records')];
    const query = 'show recent invoices';
    expect((await names(tools, query))[0]).toBe('invoices_list');
    const plain = createBm25Ranker({ partOfSpeechWeights: false });
    const tied = await (await plain.index(tools)).search(query, 2);
    expect(tied[0]!.score).toBe(tied[1]!.score);
    expect(tied[0]!.name).toBe('recent_items');
  });

  it('still matches the words of a query that carries a long blob (left out of tagging)', async () => {
    const tools = [
      tool('extract_image', 'Extract an image from base64 data'),
      tool('other', 'Text'),
    ];
    const blob = 'iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6'.repeat(100);
    expect(await names(tools, `What does this base64 image mean?\n${blob}`)).toEqual([
      'extract_image',
    ]);
  });

  it('ranks a tool whose first sentence has two query words side by side above one that has them apart', async () => {
    const tools = [
      tool('apart', 'Pull request reviewers and issue labels. Nothing else.'),
      tool('adjacent', 'Labels an issue. Pull request reviewers too.'),
      tool('later', 'Reviewers of a pull request. Issue labels here.'),
    ];
    // The same terms in each; only 'adjacent' has 'issue label' in its first sentence
    // ('label issu' in order after stemming: the query says 'label issues').
    const hits = await names(tools, 'label issues', 3);
    expect(hits[0]).toBe('adjacent');
    const plain = createBm25Ranker({ proximityWeight: 0, partOfSpeechWeights: false });
    const flat = await (await plain.index(tools)).search('label issues', 3);
    expect(new Set(flat.map((hit) => hit.score)).size).toBe(1);
  });

  it('counts a repeated query term once', async () => {
    const index = await ranker.index(conformanceTools);
    expect(await index.search('file file file', 5)).toEqual(await index.search('file', 5));
  });

  it('keeps catalog order between equal scores', async () => {
    const tools = [tool('b_tool', 'widget'), tool('a_tool', 'widget'), tool('c_tool', 'widget')];
    expect(await names(tools, 'widget')).toEqual(['b_tool', 'a_tool', 'c_tool']);
  });

  it('returns the same index for the same sequence of tool objects', async () => {
    const tools = [...conformanceTools];
    const first = await ranker.index(tools);
    expect(await ranker.index([...tools])).toBe(first);
    expect(await ranker.index(tools.slice(1))).not.toBe(first);
  });

  it('sees a changed tool object in the next index', async () => {
    const tools = [tool('alpha', 'first version'), tool('beta', 'other')];
    expect(await names(tools, 'second')).toEqual([]);
    const changed = [tool('alpha', 'second version'), tools[1]!];
    expect(await names(changed, 'second')).toEqual(['alpha']);
    expect(await names(tools, 'second')).toEqual([]);
  });

  it('tolerates tools without a schema, description or usable name parts', async () => {
    const tools = [
      { name: 'bare' } as unknown as ToolDefinition,
      {
        name: '___',
        inputSchema: { type: 'object', properties: null },
      } as unknown as ToolDefinition,
      tool('x', 'y', { inputSchema: { type: 'object', properties: { a: 'not a schema' } } }),
    ];
    expect(await names(tools, 'bare')).toEqual(['bare']);
    expect(await names(tools, '___')).toEqual(['___']);
  });

  it('accepts tuning overrides field by field', async () => {
    const tools = [tool('alpha', 'beta'), tool('beta', 'alpha')];
    const descriptionFirst = createBm25Ranker({
      fields: { name: { weight: 0.1 } },
      exactNameFirst: false,
    });
    const hits = await (await descriptionFirst.index(tools)).search('beta', 2);
    expect(hits[0]!.name).toBe('alpha');
    expect(DEFAULT_BM25_TUNING.fields.name.weight).toBeGreaterThan(1);
  });

  it('rejects an unknown preset', () => {
    expect(() => createBm25Ranker({ preset: 'best' as 'default' })).toThrow(ToolSearchError);
  });
});
