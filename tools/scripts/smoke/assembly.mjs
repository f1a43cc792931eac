// A tiny assembly + search with the installed tarballs: scope a session, assemble with
// tool search on, search through the bridge, call a deferred tool through tool_call and
// the hooks dispatcher, and show the unwrapped name.
import assert from 'node:assert/strict';
import { assembleTools, handleBridgeCall, unwrapToolCall } from '@tool-search/bridge';
import { createBm25Ranker, createCatalog } from '@tool-search/core';
import { loadRelatedWords } from '@tool-search/core/internal';
import { createDispatcher } from '@tool-search/hooks';
import { scopeTools } from '@tool-search/toolsets';

const schema = (properties) => ({ type: 'object', properties, required: Object.keys(properties) });
const tools = [
  {
    name: 'read_file',
    description: 'Read a file from disk.',
    inputSchema: schema({ path: { type: 'string' } }),
    source: 'core',
    toolset: 'files',
  },
  {
    name: 'github_create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: schema({ repo: { type: 'string' }, title: { type: 'string' } }),
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_list_pulls',
    description: 'List pull requests of a GitHub repository.',
    inputSchema: schema({ repo: { type: 'string' } }),
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'slack_post_message',
    description: 'Post a message to a Slack channel.',
    inputSchema: schema({ channel: { type: 'string' }, text: { type: 'string' } }),
    source: 'mcp',
    toolset: 'mcp-slack',
  },
];

const catalog = createCatalog(tools.slice(1), { ranker: createBm25Ranker() });
const hits = await catalog.search('open an issue on github', { limit: 2 });
assert.equal(hits[0]?.name, 'github_create_issue');
console.log(`  ok   catalog search: ${hits.map((hit) => hit.name).join(', ')}`);

// The WordNet table ships in the tarball: a word no tool uses finds its relatives.
assert.ok((loadRelatedWords()?.size ?? 0) > 40_000, 'data/related-words.cjs is in the package');
const related = await catalog.search('broadcast this to the team', { limit: 1 });
assert.equal(related[0]?.name, 'slack_post_message');
console.log(`  ok   related words: 'broadcast' finds ${related[0]?.name}`);

const scoped = scopeTools(tools, { enabledToolsets: ['files', 'mcp-github'] });
assert.ok(!scoped.some((tool) => tool.name === 'slack_post_message'), 'slack is out of scope');

const assembly = await assembleTools({ tools: scoped, config: { enabled: 'on' } });
assert.equal(assembly.activated, true);
const visible = assembly.tools.map((tool) => tool.name);
assert.deepEqual(visible, ['read_file', 'tool_search', 'tool_describe', 'tool_call']);
console.log(`  ok   assembly: ${visible.join(', ')}`);

const executed = [];
const dispatch = createDispatcher({
  execute: async (call) => {
    executed.push(call.name);
    return { content: [{ type: 'text', text: `created ${call.arguments.title}` }] };
  },
});
const search = await handleBridgeCall(
  assembly,
  { name: 'tool_search', arguments: { query: 'create issue' } },
  dispatch,
);
assert.ok(JSON.stringify(search).includes('github_create_issue'), JSON.stringify(search));
const bridged = {
  name: 'tool_call',
  arguments: { name: 'github_create_issue', arguments: { repo: 'a/b', title: 'Hi' } },
};
await handleBridgeCall(assembly, bridged, dispatch);
assert.deepEqual(executed, ['github_create_issue']);
assert.equal(unwrapToolCall(bridged).name, 'github_create_issue');
console.log('  ok   bridge: tool_search finds it, tool_call dispatches github_create_issue');
