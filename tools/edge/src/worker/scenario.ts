// The same calls on every runtime: a search, a call the bridge checks and repairs, and
// a call it refuses, through the bridge and the one hooks pipeline (with the schema
// guardrail). Node runs it in the test; workerd, Deno and Bun run it bundled.
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createBm25Ranker, type ToolDefinition } from '@tool-search/core';
import { canGenerateCode } from '@tool-search/core/validate';
import { createDispatcher, createSchemaGuardrail } from '@tool-search/hooks';

const SERVICES = ['github', 'gitlab', 'jira', 'slack', 'calendar', 'drive'] as const;
const ACTIONS = [
  ['create_issue', 'Create an issue with a title and a body'],
  ['list_issues', 'List the open issues, newest first'],
  ['send_message', 'Send a message to a channel or a person'],
  ['search_files', 'Search files by name or content'],
  ['schedule_meeting', 'Schedule a meeting with people at a time'],
] as const;

/** A catalog of 30 tools (6 services, 5 actions), deferred behind the bridge. */
export function scenarioTools(): ToolDefinition[] {
  return SERVICES.flatMap((service) =>
    ACTIONS.map(([action, description]) => ({
      name: `${service}_${action}`,
      description: `${description} on ${service}.`,
      source: 'mcp' as const,
      toolset: `mcp-${service}`,
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          count: { type: 'integer', minimum: 1 },
          labels: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        },
        required: ['title'],
        additionalProperties: false,
      },
    })),
  );
}

/** What one runtime answers. */
export interface ScenarioAnswers {
  codeGeneration: boolean;
  search: unknown;
  repaired: unknown;
  refused: unknown;
}

/**
 * Runs the scenario.
 *
 * @returns the answers, as JSON values
 */
export async function runScenario(): Promise<ScenarioAnswers> {
  const tools = scenarioTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const assembly = assembleTools({ tools, config: { enabled: 'on' }, ranker: createBm25Ranker() });
  const dispatch = createDispatcher({
    execute: (call) => ({ ran: call.name, with: call.arguments }),
    guardrails: [createSchemaGuardrail((name) => byName.get(name))],
  });
  const bridge = (name: string, args: Record<string, unknown>) =>
    handleBridgeCall(assembly, { name, arguments: args }, dispatch);
  const search = await bridge('tool_search', { query: 'open a new github issue about a bug' });
  const repaired = await bridge('tool_call', {
    name: 'github_create_issue',
    arguments: { title: 'Crash on start', count: '3', labels: ['bug'] },
  });
  const refused = await bridge('tool_call', {
    name: 'github_create_issue',
    arguments: { title: 'x', evil: 'x', count: 'abc', labels: ['a', 'a'] },
  });
  return JSON.parse(
    JSON.stringify({ codeGeneration: canGenerateCode(), search, repaired, refused }),
  ) as ScenarioAnswers;
}
