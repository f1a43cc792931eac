import { describe, expect, it } from 'vitest';
import { sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { createAssemblyCache } from './assembly-memo.js';
import { handleBridgeCall } from './handle.js';

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);
const slack = names(sessionTools.filter((tool) => tool.toolset === 'mcp-slack'));
const github = names(sessionTools.filter((tool) => tool.toolset === 'mcp-github'));
// A window so large that the threshold alone never activates.
const wide = 10_000_000;

describe('assembleTools with toolset loading', () => {
  it('defers a deferred toolset below the threshold and leaves the auto ones in the list', async () => {
    const assembly = assembleTools({
      tools: sessionTools,
      config: { toolset_loading: { 'mcp-slack': 'deferred' } },
      contextWindow: wide,
    });
    expect(assembly.decision).toMatchObject({ active: true, reason: 'toolset-deferred' });
    expect(names(assembly.deferred)).toEqual(slack);
    expect(names(assembly.tools)).toEqual([
      'bash',
      'edit_file',
      ...github,
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect(assembly.stats.deferredCount).toBe(slack.length);
    // The bridge answers for the deferred toolset alone; a GitHub tool is called directly.
    const hits = (await handleBridgeCall(
      assembly,
      { name: 'tool_search', arguments: { query: 'create issue' } },
      () => ({}),
    )) as { matches: { name: string }[]; total_available: number };
    expect(hits.total_available).toBe(slack.length);
    expect(hits.matches.every((match) => slack.includes(match.name))).toBe(true);
    expect(
      handleBridgeCall(assembly, { name: 'github_create_issue', arguments: {} }, () => ({})),
    ).toBeUndefined();
  });

  it('keeps an eager toolset in the list when the rest is deferred', () => {
    const assembly = assembleTools({
      tools: sessionTools,
      config: { enabled: 'on', toolsetLoading: { 'mcp-github': 'eager' } },
    });
    expect(names(assembly.deferred)).toEqual(slack);
    expect(names(assembly.tools).slice(0, 2 + github.length)).toEqual([
      'bash',
      'edit_file',
      ...github,
    ]);
  });

  it('does not reuse the classification of one loading for another over the same cache', () => {
    const cache = createAssemblyCache();
    const first = assembleTools({ tools: sessionTools, config: { enabled: 'on' }, cache });
    const eager = assembleTools({
      tools: sessionTools,
      config: { enabled: 'on', toolsetLoading: { 'mcp-slack': 'eager' } },
      cache,
    });
    expect(first.deferred).toHaveLength(slack.length + github.length);
    expect(names(eager.deferred)).toEqual(github);
  });

  it('stays off when tool search is off, whatever a toolset says', () => {
    const assembly = assembleTools({
      tools: sessionTools,
      config: { enabled: 'off', toolsetLoading: { 'mcp-slack': 'deferred' } },
    });
    expect(assembly.activated).toBe(false);
    expect(assembly.tools).toHaveLength(sessionTools.length);
  });
});
