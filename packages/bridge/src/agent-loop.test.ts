import type { ToolCall } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { coreTools, paddedTool, sessionTools } from './__fixtures__/tools.js';
import type { Assembly } from './assemble.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';
import { unwrapToolCall } from './unwrap.js';

// The README's loop, with a scripted model: search, describe, call through the
// bridge, then a core tool directly.
describe('a minimal agent loop', () => {
  it('assembles, answers bridge calls, dispatches the real tool and logs its real name', async () => {
    const bulk = Array.from({ length: 300 }, (_, index) => paddedTool(index));
    const tools = [...sessionTools, ...bulk];
    const script: { id: string; name: string; arguments: unknown }[] = [
      { id: '1', name: 'tool_search', arguments: '{"query":"post a message to a slack channel"}' },
      { id: '2', name: 'tool_describe', arguments: { name: 'slack_post_message' } },
      {
        id: '3',
        name: 'tool_call',
        arguments: {
          name: 'slack_post_message',
          arguments: '{"channel_id":"C1","text":"deployed"}',
        },
      },
      { id: '4', name: 'bash', arguments: { command: 'ls' } },
    ];
    const seenByPolicy: string[] = [];
    const dispatch = async (call: ToolCall) => {
      seenByPolicy.push(call.name); // where guardrails, hooks and approvals run
      return { ok: true, tool: call.name };
    };
    const log: string[] = [];
    const answers: unknown[] = [];

    let previous: Assembly | undefined;
    for (const call of script) {
      const assembly = assembleTools({ tools, contextWindow: 200_000, previous });
      previous = assembly;
      expect(assembly.activated).toBe(true);
      expect(assembly.tools.map((tool) => tool.name)).toEqual([
        ...coreTools.map((tool) => tool.name),
        'tool_search',
        'tool_describe',
        'tool_call',
      ]);
      log.push(unwrapToolCall(call).name);
      const bridged = handleBridgeCall(assembly, call, dispatch);
      answers.push(bridged ? await bridged : await dispatch(call as ToolCall));
    }

    expect(log).toEqual(['tool_search', 'tool_describe', 'slack_post_message', 'bash']);
    expect(seenByPolicy).toEqual(['slack_post_message', 'bash']);
    const found = answers[0] as { total_available: number; matches: { name: string }[] };
    expect(found.total_available).toBe(tools.length - coreTools.length);
    expect(found.matches.map((match) => match.name)).toContain('slack_post_message');
    expect(answers[1]).toMatchObject({
      name: 'slack_post_message',
      parameters: { type: 'object' },
    });
    expect(answers[2]).toEqual({ ok: true, tool: 'slack_post_message' });
    expect(previous!.telemetry).toMatchObject({
      assemblies: 4,
      searches: 1,
      describes: 1,
      calls: 1,
      dispatched: 1,
    });
  });
});
