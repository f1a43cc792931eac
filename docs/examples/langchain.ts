/**
 * Tool search in a LangChain agent: `withToolSearch` of `@tool-search/langchain` over
 * LangChain tools, in langchain's `createAgent` (LangGraph underneath), with a guardrail,
 * an audit, and a person's approval through LangGraph's `interrupt()`. The model is the
 * scripted model of `@tool-search/langchain/testing`, so that this runs without an API
 * key: put `new ChatAnthropic({ model: 'claude-sonnet-4-6' })` or any chat model there.
 */
import { strict as assert } from 'node:assert';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import {
  type AuditRecord,
  createAuditHook,
  createPolicyApproval,
  createToolPolicyGuardrail,
} from '@tool-search/hooks';
import { withToolSearch } from '@tool-search/langchain';
import { createInterruptApproval } from '@tool-search/langchain/langgraph';
import { createScriptedChatModel } from '@tool-search/langchain/testing';
import { createAgent } from 'langchain';
import { z } from 'zod';

// Your LangChain tools (MCP tools from @langchain/mcp-adapters' loadMcpTools work the same).
const ran: string[] = [];
const run = (name: string) => async (args: object) => {
  ran.push(name);
  return JSON.stringify({ ok: true, tool: name, args });
};
const tools = [
  tool(run('read_file'), {
    name: 'read_file',
    description: 'Read a text file from the workspace.',
    schema: z.object({ path: z.string() }),
  }),
  tool(run('github_create_issue'), {
    name: 'github_create_issue',
    description: 'Create a new issue in a GitHub repository.',
    schema: z.object({ repo: z.string(), title: z.string(), body: z.string().optional() }),
  }),
  tool(run('github_delete_repo'), {
    name: 'github_delete_repo',
    description: 'Delete a GitHub repository for good.',
    schema: z.object({ repo: z.string() }),
  }),
  tool(run('slack_post_message'), {
    name: 'slack_post_message',
    description: 'Post a message to a Slack channel.',
    schema: z.object({ channel: z.string(), text: z.string() }),
  }),
];

// #region setup
const audit: AuditRecord[] = [];
const search = withToolSearch(tools, {
  core: ['read_file'], // your built-in tools: never deferred
  config: { enabled: 'on' }, // four tiny tools; 'auto' decides by the threshold
  contextWindow: 200_000,
  guardrails: [createToolPolicyGuardrail({ deny: ['slack_*'] })],
  hooks: [createAuditHook((record) => void audit.push(record))],
  // Ask a person before deleting anything, through LangGraph's interrupt().
  approval: createPolicyApproval({
    require: { tools: ['*_delete_*'] },
    otherwise: 'allow',
    ask: createInterruptApproval(),
  }),
});
console.log(search.decision); // { active: true, reason: 'forced-on', deferrableTokens, thresholdTokens }
// #endregion setup

// #region agent
const model = createScriptedChatModel([
  { calls: [{ name: 'tool_search', args: { query: 'create a github issue' } }] },
  { calls: [{ name: 'tool_describe', args: { name: 'github_create_issue' } }] },
  {
    calls: [
      {
        name: 'tool_call',
        args: {
          name: 'github_create_issue',
          arguments: { repo: 'acme/app', title: 'Login fails' },
        },
      },
    ],
  },
  { text: 'Filed it.' },
]);
// The middleware answers a deferred tool the model calls by its own name (never shown to it).
const agent = createAgent({ model, tools: search.tools, middleware: [search.middleware] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'File the login bug' }] });
// The model saw read_file and the bridge; the issue tool ran once, on its real name.
assert.deepEqual(model.bound[0], ['read_file', 'tool_search', 'tool_describe', 'tool_call']);
assert.deepEqual(ran, ['github_create_issue']);
assert.equal(audit[0]?.tool, 'github_create_issue');
assert.equal(result.messages.at(-1)?.text, 'Filed it.');
// #endregion agent

// #region approval
const deleting = createAgent({
  model: createScriptedChatModel([
    {
      calls: [
        {
          name: 'tool_call',
          args: { name: 'github_delete_repo', arguments: { repo: 'acme/old' } },
        },
      ],
    },
    { text: 'Deleted.' },
  ]),
  tools: search.tools,
  middleware: [search.middleware],
  checkpointer: new MemorySaver(), // interrupt() needs one
});
const thread = { configurable: { thread_id: 'cleanup-1' } };
const paused = await deleting.invoke(
  { messages: [{ role: 'user', content: 'Delete acme/old' }] },
  thread,
);
// The graph paused: the question is in __interrupt__, with the call as it will run.
const [question] = paused.__interrupt__ ?? [];
assert.deepEqual(question?.value, {
  type: 'tool_approval',
  question: 'Allow github_delete_repo({"repo":"acme/old"})?',
  tool: 'github_delete_repo',
  arguments: '{"repo":"acme/old"}',
  via: 'bridge',
  toolCallId: 'call_1_0',
});
// A person answers; the graph resumes and the tool runs once.
await deleting.invoke(new Command({ resume: 'allow-once' }), thread);
assert.deepEqual(ran, ['github_create_issue', 'github_delete_repo']);
// #endregion approval

// A deferred tool called by its own name in a graph of your own: the fallback tools answer.
const graphModel = createScriptedChatModel([
  { calls: [{ name: 'github_create_issue', args: { repo: 'acme/app', title: 'Crash' } }] },
  { text: 'Filed.' },
]);
// #region graph
const bound = graphModel.bindTools(search.tools); // what the model sees
const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
  .addNode('tools', new ToolNode([...search.tools, ...search.fallbackTools]))
  .addEdge('__start__', 'agent')
  .addConditionalEdges('agent', toolsCondition)
  .addEdge('tools', 'agent')
  .compile();
// #endregion graph
await graph.invoke({ messages: [{ role: 'user', content: 'File the crash' }] });
assert.deepEqual(ran, ['github_create_issue', 'github_delete_repo', 'github_create_issue']);
