// The setup in each place LangChain users put tools: langchain's createAgent (the current
// agent), a ToolNode of their own StateGraph, and MCP tools loaded by @langchain/mcp-adapters.
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AuditRecord } from '@tool-search/hooks';
import { createAuditHook, createToolPolicyGuardrail } from '@tool-search/hooks';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixtureTools, type Ran } from './__fixtures__/tools.js';
import { createScriptedChatModel } from './testing/index.js';
import { withToolSearch } from './with-tool-search.js';

const quiet = { warn() {}, info() {} };

function toolTexts(messages: BaseMessage[]): string[] {
  return messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .map((message) => String(message.content));
}

describe('withToolSearch in langchain createAgent', () => {
  it('searches, describes and calls, with the guardrail applying to the real name', async () => {
    const ran: Ran = [];
    const audit: AuditRecord[] = [];
    const search = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      guardrails: [createToolPolicyGuardrail({ deny: ['delete_*'] })],
      hooks: [createAuditHook((record) => void audit.push(record))],
      logger: quiet,
    });
    const model = createScriptedChatModel([
      { calls: [{ name: 'tool_search', args: { query: 'github issue' } }] },
      { calls: [{ name: 'tool_describe', args: { name: 'create_issue' } }] },
      {
        calls: [
          {
            name: 'tool_call',
            args: { name: 'create_issue', arguments: { repo: 'web', title: 'Bug' } },
          },
          { name: 'tool_call', args: { name: 'delete_repo', arguments: { repo: 'web' } } },
        ],
      },
      { text: 'Filed, and deleting was refused.' },
    ]);
    const agent = createAgent({ model, tools: search.tools });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'File a bug' }] });
    const [searched, described, created, deleted] = toolTexts(result.messages);
    expect(searched).toContain('create_issue');
    expect(described).toContain('"name":"create_issue"');
    expect(created).toContain('"tool":"create_issue"');
    expect(deleted).toContain("guardrail 'tool-policy'");
    expect(ran).toEqual([{ name: 'create_issue', args: { repo: 'web', title: 'Bug' } }]);
    // The two calls of one turn run side by side.
    expect(audit.map((record) => [record.tool, record.status]).sort()).toEqual([
      ['create_issue', 'ok'],
      ['delete_repo', 'denied'],
    ]);
  });
});

describe('the setup middleware in createAgent', () => {
  it('routes a deferred tool the model calls by its own name through the dispatcher, without showing it', async () => {
    const ran: Ran = [];
    const audit: AuditRecord[] = [];
    const search = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      hooks: [createAuditHook((record) => void audit.push(record))],
      logger: quiet,
    });
    const model = createScriptedChatModel([
      { calls: [{ name: 'get_weather', args: { city: 'Oslo', days: '2' } }] },
      { calls: [{ name: 'no_such_tool', args: {} }] },
      { text: 'Cold.' },
    ]);
    const agent = createAgent({ model, tools: search.tools, middleware: [search.middleware] });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Weather?' }] });
    expect(model.bound[0]).toEqual(['read_file', 'tool_search', 'tool_describe', 'tool_call']);
    const [routed, unknown] = toolTexts(result.messages);
    expect(routed).toContain('"tool":"get_weather"');
    expect(ran).toEqual([{ name: 'get_weather', args: { city: 'Oslo', days: 2 } }]);
    expect(audit).toEqual([
      expect.objectContaining({ tool: 'get_weather', via: 'direct', status: 'ok' }),
    ]);
    // A name the session does not hold at all is langchain's own refusal.
    expect(unknown).toContain('no_such_tool');
  });
});

describe('withToolSearch in a StateGraph with a ToolNode', () => {
  it('binds the visible tools and the bridge to the model, and executes a deferred tool the model names directly', async () => {
    const ran: Ran = [];
    const search = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      logger: quiet,
    });
    const model = createScriptedChatModel([
      { calls: [{ name: 'get_weather', args: { city: 'Oslo' } }] },
      { text: 'Cold.' },
    ]);
    const bound = model.bindTools(search.tools);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode('tools', new ToolNode([...search.tools, ...search.fallbackTools]))
      .addEdge('__start__', 'agent')
      .addConditionalEdges('agent', toolsCondition)
      .addEdge('tools', 'agent')
      .compile();
    const result = await graph.invoke({ messages: [{ role: 'user', content: 'Weather?' }] });
    expect(model.bound[0]).not.toContain('get_weather');
    expect(toolTexts(result.messages)[0]).toContain('"tool":"get_weather"');
    expect(ran).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(result.messages.at(-1)).toBeInstanceOf(AIMessage);
  });
});

describe('withToolSearch over MCP tools of @langchain/mcp-adapters', () => {
  it('defers the MCP tools, reads their annotations, and calls one through tool_call', async () => {
    const server = new McpServer({ name: 'tracker', version: '1.0.0' });
    const calls: unknown[] = [];
    server.registerTool(
      'list_tickets',
      {
        description: 'List the open tickets of a project.',
        inputSchema: { project: z.string(), limit: z.number().int().optional() },
        annotations: { readOnlyHint: true },
      },
      async (args) => {
        calls.push(args);
        return { content: [{ type: 'text', text: `tickets of ${args.project}` }] };
      },
    );
    for (let index = 0; index < 20; index += 1) {
      server.registerTool(
        `ticket_tool_${index}`,
        { description: `Ticket tool ${index}.`, inputSchema: { id: z.string() } },
        async () => ({ content: [{ type: 'text', text: 'ok' }] }),
      );
    }
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientTransport);
    try {
      const tools = await loadMcpTools('tracker', client);
      const search = withToolSearch(tools, {
        source: 'mcp',
        toolsets: { 'mcp-tracker': tools.map((tool) => tool.name) },
        config: { enabled: 'on' },
        logger: quiet,
      });
      expect(search.tools.map((tool) => tool.name)).toEqual([
        'tool_search',
        'tool_describe',
        'tool_call',
      ]);
      expect(search.assembly.catalog.get('list_tickets')).toMatchObject({
        source: 'mcp',
        toolset: 'mcp-tracker',
        annotations: { readOnlyHint: true },
      });
      const model = createScriptedChatModel([
        {
          calls: [
            {
              name: 'tool_call',
              args: { name: 'list_tickets', arguments: { project: 'web', limit: '5' } },
            },
          ],
        },
        { text: 'Listed.' },
      ]);
      const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
      const result = await createReactAgent({ llm: model, tools: search.tools }).invoke({
        messages: [{ role: 'user', content: 'Tickets?' }],
      });
      expect(calls).toEqual([{ project: 'web', limit: 5 }]);
      expect(toolTexts(result.messages)[0]).toContain('tickets of web');
    } finally {
      await client.close();
    }
  });
});
