import type { ToolDefinition } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

/** A session's tools: a core tool, two MCP servers (one with a dotted name) and a plugin. */
export const sessionTools: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file from the workspace.',
    inputSchema: object({ path: { type: 'string' } }, ['path']),
    source: 'core',
  },
  {
    name: 'github.create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: object(
      {
        repo: { type: 'string' },
        title: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' } },
      },
      ['repo', 'title'],
    ),
    source: 'mcp',
    toolset: 'mcp-github',
    origin: { server: 'github', name: 'create_issue' },
  },
  {
    name: 'github_list_pull_requests',
    description: 'List open pull requests of a GitHub repository.',
    inputSchema: object(
      { repo: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed'] } },
      ['repo'],
    ),
    source: 'mcp',
    toolset: 'mcp-github',
    origin: { server: 'github', name: 'list_pull_requests' },
  },
  {
    name: 'slack_post_message',
    description: 'Post a message to a Slack channel.',
    inputSchema: object({ channel: { type: 'string' }, text: { type: 'string' } }, [
      'channel',
      'text',
    ]),
    source: 'mcp',
    toolset: 'mcp-slack',
    origin: { server: 'slack', name: 'post_message' },
  },
  {
    name: 'weather_forecast',
    description: 'Get the weather forecast for a city.',
    inputSchema: object({ city: { type: 'string' }, days: { type: 'integer' } }, ['city']),
    source: 'plugin',
  },
];

/**
 * The real tools behind the definitions (an in-memory issue tracker and friends), behind
 * the hooks dispatcher: `seen` records the names the hooks and the guardrail saw.
 */
export function createToolRuntime() {
  const seen: {
    hook: string[];
    guardrail: string[];
    executed: { name: string; arguments: unknown }[];
  } = {
    hook: [],
    guardrail: [],
    executed: [],
  };
  const issues: { number: number; repo: string; title: string }[] = [];
  const dispatch = createDispatcher({
    guardrails: [
      {
        name: 'record',
        check: (call) => {
          seen.guardrail.push(call.name);
          return { allow: true };
        },
      },
    ],
    hooks: [{ name: 'record', beforeCall: (call) => void seen.hook.push(call.name) }],
    execute: (call) => {
      seen.executed.push({ name: call.name, arguments: call.arguments });
      switch (call.name) {
        case 'github.create_issue': {
          const issue = {
            number: issues.length + 1,
            repo: String(call.arguments['repo']),
            title: String(call.arguments['title']),
          };
          issues.push(issue);
          return issue;
        }
        case 'slack_post_message':
          return { ok: true, channel: call.arguments['channel'] };
        default:
          throw new Error(`no runtime for ${call.name}`);
      }
    },
  });
  return { dispatch, seen, issues };
}
