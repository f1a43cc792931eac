/**
 * Tool search in the OpenAI Agents SDK (`@openai/agents`): our toolsets become namespaces
 * of deferred function tools, and a client `tool_search` executor answers the model's
 * searches from our catalog. The executor is run here as the runner would run it on a
 * `tool_search_call`, so that this runs without an API key; with one, `run(agent, input)`.
 * No adapter package is needed: the whole recipe is these lines.
 */
import { strict as assert } from 'node:assert';
import {
  Agent,
  attachClientToolSearchExecutor,
  getClientToolSearchExecutor,
  RunContext,
  tool,
  toolNamespace,
  toolSearchTool,
} from '@openai/agents';
import { classifyTools, createCatalog, type ToolDefinition } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { renderToolOutcome } from '@tool-search/providers';
import { tools } from './tools.js';

const dispatch = createDispatcher({ execute: async (call) => ({ ok: true, tool: call.name }) });

// #region namespaces
// One Agents SDK function tool per definition; every call goes through the dispatcher.
function agentTool(definition: ToolDefinition, deferLoading: boolean) {
  return tool({
    name: definition.name,
    description: definition.description ?? '',
    // Our schemas are third-party JSON Schema: sent as they are, not in strict mode.
    parameters: {
      ...definition.inputSchema,
      type: 'object' as const,
      properties: (definition.inputSchema.properties ?? {}) as Record<string, never>,
      required: (definition.inputSchema.required ?? []) as never[],
      additionalProperties: true as const,
    },
    strict: false,
    deferLoading,
    // The result alone, or `Denied: …` / `Error: …`: never the echoed call.
    execute: async (input) =>
      renderToolOutcome(
        await dispatch({ name: definition.name, arguments: input as Record<string, unknown> }),
      ).text,
  });
}

const { visible, deferrable } = classifyTools(tools); // core tools are never deferred
const toolsets = new Map<string, ToolDefinition[]>();
for (const definition of deferrable) {
  const name = definition.toolset ?? 'other';
  toolsets.set(name, [...(toolsets.get(name) ?? []), definition]);
}
const namespaces = [...toolsets].flatMap(([name, members]) =>
  toolNamespace({
    name: name.replace(/[^a-zA-Z0-9_-]/g, '_'),
    description: `The ${name} tools`,
    tools: members.map((definition) => agentTool(definition, true)),
  }),
);
// #endregion namespaces

// #region executor
const catalog = createCatalog(deferrable); // only this session's (scoped) deferred tools
const search = attachClientToolSearchExecutor(
  toolSearchTool({
    execution: 'client',
    description: 'Search the deferred tools by what you want to do, e.g. "create a github issue".',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
  }),
  async ({ toolCall, availableTools }) => {
    const { query } = (toolCall.arguments ?? {}) as { query?: string };
    const hits = await catalog.search(query ?? '', { limit: 5 });
    const found = new Set(hits.map((hit) => hit.name));
    return availableTools.filter((candidate) => found.has(candidate.name));
  },
);
const agent = new Agent({
  name: 'Assistant',
  instructions: 'Find tools with tool_search before you call them.',
  model: 'gpt-5',
  tools: [...visible.map((definition) => agentTool(definition, false)), ...namespaces, search],
});
// #endregion executor

const executor = getClientToolSearchExecutor(search);
assert.ok(executor);
const loaded = await executor({
  agent,
  availableTools: agent.tools,
  loadDefault: () => [],
  runContext: new RunContext(),
  toolCall: {
    type: 'tool_search_call',
    call_id: 'ts_1',
    execution: 'client',
    arguments: { query: 'post a message to slack' },
  },
});
const names = [loaded ?? []].flat().map((loadedTool) => loadedTool.name);
assert.equal(names[0], 'slack_post_message');
console.log(`openai-agents: tool_search loaded ${names.join(', ')}`);
