import { createBm25Ranker, type ToolDefinition } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { forcedOn } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  source: 'mcp',
  toolset: 'workspace',
});

// Six tools of one toolset; each of `run shell command execute code` is in exactly one.
const workspace: ToolDefinition[] = [
  tool('slack_send_message', 'Send a message to a Slack channel.'),
  tool('jobs_run_job', 'Run a scheduled job now.'),
  tool('terminal_get_shell', 'Tell which login shell a user has.'),
  tool('palette_list_commands', "List the editor's palette commands."),
  tool('sql_execute_query', 'Execute a read-only SQL query.'),
  tool('repo_search_code', 'Search source code in a repository.'),
];

const searchWith = async (relevanceFloor: boolean, query: string) => {
  const assembly = assembleTools({
    tools: workspace,
    config: forcedOn,
    ranker: createBm25Ranker({ relevanceFloor }),
  });
  return (await handleBridgeCall(
    assembly,
    { name: 'tool_search', arguments: { query } },
    vi.fn(),
  )) as { matches: { name: string }[]; message?: string };
};

describe('tool_search over a ranker with the relevance floor', () => {
  it('answers "send message" with the one tool that fits, not its toolset siblings', async () => {
    expect((await searchWith(false, 'send message')).matches.length).toBe(5);
    const answer = await searchWith(true, 'send message');
    expect(answer.matches.map((match) => match.name)).toEqual(['slack_send_message']);
  });

  it('answers a query no tool fits with no matches and the no-hit hint', async () => {
    const query = 'run shell command execute code';
    expect((await searchWith(false, query)).matches.length).toBe(5);
    const answer = await searchWith(true, query);
    expect(answer.matches).toEqual([]);
    expect(answer.message).toContain(query);
    expect(answer.message).toContain('workspace');
  });
});
