/**
 * The fixed query set of the latency measurements: what models and users type into
 * `tool_search` for the servers of the real catalog, from two words to a sentence.
 */
export const BENCH_QUERIES: readonly string[] = Object.freeze([
  'create github issue',
  'open a pull request',
  'merge request comments',
  'send a message to a slack channel',
  'list slack users',
  'search the web',
  'find nearby restaurants',
  'get directions between two places',
  'take a screenshot of the page',
  'click a button in the browser',
  'fill out a form and submit it',
  'read file contents',
  'write text to a file',
  'list directory',
  'search files by pattern',
  'run a shell command in the terminal',
  'query a mongodb collection',
  'run sql query on postgres',
  'create a notion page in a database',
  'scrape a website and extract structured data',
  'crawl all pages of a site',
  'remember facts about the user in the knowledge graph',
  'get pipeline build logs for the failed job',
  'look up the latest documentation for a library',
  'generate an image from a prompt',
  'what tools can update the labels on an issue or merge request',
  'network requests console errors performance trace',
  'delete',
]);
