/**
 * Tool search in Vercel AI SDK loops: the bridge with `withToolSearch` (AI SDK 6 and 7,
 * any model), and AI SDK 7's own `toolSearch()` searched by our catalog. The model is
 * the scripted test model of `@tool-search/ai-sdk/testing` answering as a model would,
 * so that this runs without an API key: put `openai('gpt-4.1')` or
 * `anthropic('claude-sonnet-5-5')` there.
 */
import { strict as assert } from 'node:assert';
import {
  createRealToolTransform,
  createToolSearchFunction,
  markDeferredTools,
  toolSetFromDefinitions,
  withToolSearch,
} from '@tool-search/ai-sdk';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { type AuditRecord, createAuditHook } from '@tool-search/hooks';
import {
  generateText,
  readUIMessageStream,
  stepCountIs,
  streamText,
  toolSearch,
  type UIMessage,
} from 'ai';
import { tools as definitions } from './tools.js';

// Your tools as an AI SDK ToolSet (here made from tool search definitions; any ToolSet works).
const tools = toolSetFromDefinitions(definitions, (call) => ({ ok: true, tool: call.name }));

// #region bridge
const audit: AuditRecord[] = [];
const search = withToolSearch(tools, {
  core: ['read_file'], // your built-in tools: never deferred
  config: { enabled: 'on' }, // five tiny tools; 'auto' decides by the threshold
  contextWindow: 128_000,
  hooks: [createAuditHook((record) => void audit.push(record))],
});
// Is tool search on, and why? (below the threshold, the logger is warned too)
const { active, reason } = await search.decision; // true, 'forced-on'
const result = await generateText({
  model: createScriptedModel([
    { tool: 'tool_search', input: { query: 'create a github issue' } },
    { tool: 'tool_describe', input: { name: 'github_create_issue' } },
    { tool: 'github_create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
    { text: 'Filed it.' },
  ]),
  ...search, // tools, prepareStep (each step's tools), the repair under ai 6's and ai 7's names
  stopWhen: stepCountIs(6),
  prompt: 'File an issue about the failing login.',
});
// #endregion bridge
assert.deepEqual({ active, reason }, { active: true, reason: 'forced-on' });
const called = result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
assert.deepEqual(called, ['tool_search', 'tool_describe', 'github_create_issue']);
assert.deepEqual(
  audit.map(({ tool, via, status }) => ({ tool, via, status })),
  [{ tool: 'github_create_issue', via: 'direct', status: 'ok' }],
);

// #region ui
const streamed = streamText({
  model: createScriptedModel([
    { tool: 'tool_search', input: { query: 'create a github issue' } },
    {
      tool: 'tool_call',
      input: { name: 'github_create_issue', arguments: { repo: 'acme/app', title: 'Login fails' } },
    },
    { text: 'Filed it.' },
  ]),
  tools: search.tools,
  prepareStep: search.prepareStep,
  experimental_repairToolCall: search.repairToolCall,
  stopWhen: stepCountIs(6),
  prompt: 'File an issue about the failing login.',
});
// In a route handler: return createUIMessageStreamResponse({ stream: ui }).
const ui = streamed.toUIMessageStream().pipeThrough(createRealToolTransform());
// #endregion ui
let message: UIMessage | undefined;
for await (const next of readUIMessageStream({ stream: ui })) message = next;
const shown = message?.parts.flatMap((part) =>
  part.type === 'dynamic-tool' ? [`${part.toolName} ${JSON.stringify(part.input)}`] : [],
);
assert.deepEqual(shown, [
  'tool_search {"query":"create a github issue"}',
  'github_create_issue {"repo":"acme/app","title":"Login fails"}',
]);
const history = (await streamed.steps).flatMap((step) => step.toolCalls.map((c) => c.toolName));
assert.deepEqual(history, ['tool_search', 'tool_call']);

// #region ai7
const marked = await markDeferredTools(tools, { core: ['read_file'], config: { enabled: 'on' } });
const found = await generateText({
  model: createScriptedModel([
    { tool: 'tool_search', input: { query: 'post a message to slack' } },
    { tool: 'slack_post_message', input: { channel: '#general', text: 'Shipped' } },
    { text: 'Posted.' },
  ]),
  tools: {
    ...marked.tools, // the deferrable ones marked deferLoading, by our activation decision
    tool_search: toolSearch({ search: createToolSearchFunction({ tools: marked.definitions }) }),
  },
  stopWhen: stepCountIs(5),
  prompt: 'Tell #general we shipped.',
});
// #endregion ai7
assert.deepEqual(
  marked.deferred.sort(),
  definitions
    .filter((t) => t.source === 'mcp')
    .map((t) => t.name)
    .sort(),
);
assert.equal(found.text, 'Posted.');
console.log(
  `ai-sdk: ${called.join(' → ')}; AI SDK 7 toolSearch → ${marked.deferred.length} deferred`,
);
