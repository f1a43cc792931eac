import type { ToolDefinition } from '@tool-search/core';
import { estimateToolTokens, resolveToolNames, ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { coreTools, forcedOn, mcpTools, paddedTool, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { createBridgeTools } from './definitions.js';
import { createBridgeTelemetry } from './telemetry.js';

const names = (tools: readonly ToolDefinition[]) => tools.map((tool) => tool.name);

describe('assembleTools', () => {
  it('passes the tools through unchanged when nothing is deferrable', () => {
    const assembly = assembleTools({ tools: coreTools, config: forcedOn });
    expect(assembly.activated).toBe(false);
    expect(assembly.decision.reason).toBe('nothing-deferrable');
    expect(assembly.tools).toEqual(coreTools);
    expect(assembly.deferred).toEqual([]);
    expect(assembly.catalog.size).toBe(0);
  });

  it('does not activate below the threshold, and adds no tool_search', () => {
    const assembly = assembleTools({ tools: sessionTools, contextWindow: 200_000 });
    expect(assembly.activated).toBe(false);
    expect(assembly.decision).toMatchObject({ reason: 'below-threshold', thresholdTokens: 20_000 });
    expect(names(assembly.tools)).toEqual(names(sessionTools));
    expect(names(assembly.tools)).not.toContain('tool_search');
    expect(assembly.stats).toMatchObject({ deferredCount: 0, bridgeTokens: 0, tokensSaved: 0 });
  });

  it('activates above the threshold: visible tools in order, then the three bridges', () => {
    const bulk = Array.from({ length: 250 }, (_, index) => paddedTool(index));
    const tools = [coreTools[0]!, ...bulk, coreTools[1]!];
    const assembly = assembleTools({ tools, contextWindow: 200_000 });
    expect(assembly.activated).toBe(true);
    expect(assembly.decision.reason).toBe('above-threshold');
    expect(names(assembly.tools)).toEqual([
      'bash',
      'edit_file',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect(assembly.deferred).toHaveLength(250);
    expect(assembly.catalog.size).toBe(250);
  });

  it('is idempotent: a pre-existing tool_search is replaced, not duplicated', () => {
    const first = assembleTools({ tools: sessionTools, config: forcedOn });
    const stale = [...createBridgeTools({ deferredCount: 3 }), ...sessionTools];
    const again = assembleTools({ tools: stale, config: forcedOn });
    expect(names(again.tools)).toEqual(names(first.tools));
    expect(names(again.tools).filter((name) => name === 'tool_search')).toHaveLength(1);
    expect(again.tools).toEqual(first.tools);

    const passthrough = assembleTools({ tools: stale, config: { enabled: 'off' } });
    expect(names(passthrough.tools)).toEqual(names(sessionTools));
  });

  it('keeps a core tool in the assembled list next to the MCP tools it defers', () => {
    const assembly = assembleTools({ tools: sessionTools, config: forcedOn });
    expect(names(assembly.tools)).toContain('bash');
    expect(names(assembly.tools)).toContain('edit_file');
    expect(assembly.catalog.has('bash')).toBe(false);
    expect(assembly.catalog.names()).toEqual(names(mcpTools));
  });

  it('keeps pinned and alwaysLoad tools visible', () => {
    const pinnedByFlag = { ...mcpTools[0]!, alwaysLoad: true };
    const assembly = assembleTools({
      tools: [pinnedByFlag, ...mcpTools.slice(1)],
      config: forcedOn,
      pinned: [mcpTools[1]!.name],
    });
    expect(names(assembly.tools).slice(0, 2)).toEqual([mcpTools[0]!.name, mcpTools[1]!.name]);
    expect(assembly.catalog.has(mcpTools[0]!.name)).toBe(false);
    expect(assembly.catalog.has(mcpTools[1]!.name)).toBe(false);
  });

  it('reports the numbers a runtime logs', () => {
    const assembly = assembleTools({ tools: sessionTools, config: forcedOn });
    const deferredTokens = estimateToolTokens(mcpTools);
    const bridgeTokens = estimateToolTokens(assembly.tools.slice(-3));
    expect(assembly.stats).toEqual({
      visibleCount: coreTools.length + 3,
      deferredCount: mcpTools.length,
      deferredTokens,
      thresholdTokens: 0,
      bridgeTokens,
      tokensSaved: deferredTokens - bridgeTokens,
    });
    expect(assembly.decision.deferrableTokens).toBe(deferredTokens);
  });

  it('accepts the snake_case config form and an absolute threshold', () => {
    const assembly = assembleTools({
      tools: sessionTools,
      config: { threshold_tokens: 100, search_default_limit: 2 },
    });
    expect(assembly.activated).toBe(true);
    expect(assembly.stats.thresholdTokens).toBe(100);
    expect(assembly.config.searchDefaultLimit).toBe(2);
  });

  it('states the deferred count in tool_search unless stableDescriptions', () => {
    const counted = assembleTools({ tools: sessionTools, config: forcedOn });
    expect(counted.tools.at(-3)!.description).toContain(`Search the ${mcpTools.length} tools that`);
    const stable = assembleTools({
      tools: sessionTools,
      config: forcedOn,
      stableDescriptions: true,
    });
    expect(stable.tools.at(-3)!.description).not.toMatch(/\d/);
  });

  it('remembers names from the previous assembly that are gone now', () => {
    const first = assembleTools({ tools: sessionTools, config: forcedOn });
    const withoutSlack = sessionTools.filter((tool) => tool.toolset !== 'mcp-slack');
    const second = assembleTools({ tools: withoutSlack, config: forcedOn, previous: first });
    expect(second.knownNames.has('slack_post_message')).toBe(true);
    expect(second.knownNames.has('github_create_issue')).toBe(false);
    const third = assembleTools({ tools: withoutSlack, config: forcedOn, previous: second });
    expect(third.knownNames.has('slack_post_message')).toBe(true);
    const resumed = assembleTools({ tools: withoutSlack, config: forcedOn, knownNames: ['x_y'] });
    expect([...resumed.knownNames]).toEqual(['x_y']);
  });

  it('reuses the previous catalog, and its ranker index, while the deferred tools are unchanged', async () => {
    let indexed = 0;
    const ranker = {
      specificationVersion: 'v1' as const,
      id: 'counting',
      index: (tools: readonly ToolDefinition[]) => {
        indexed += 1;
        return { search: () => tools.slice(0, 1).map((tool) => ({ name: tool.name, score: 1 })) };
      },
    };
    const first = assembleTools({ tools: sessionTools, config: forcedOn, ranker });
    await first.catalog.search('x');
    const second = assembleTools({
      tools: sessionTools,
      config: forcedOn,
      ranker,
      previous: first,
    });
    await second.catalog.search('x');
    expect(second.catalog).toBe(first.catalog);
    expect(indexed).toBe(1);

    const changed = assembleTools({
      tools: sessionTools.slice(0, -1),
      config: forcedOn,
      ranker,
      previous: second,
    });
    expect(changed.catalog).not.toBe(first.catalog);
    expect(changed.catalog.size).toBe(mcpTools.length - 1);
    const otherRanker = assembleTools({ tools: sessionTools, config: forcedOn, previous: first });
    expect(otherRanker.catalog).not.toBe(first.catalog);
  });

  it('counts assemblies and tokens saved in the telemetry it is given', () => {
    const telemetry = createBridgeTelemetry();
    const first = assembleTools({ tools: sessionTools, config: forcedOn, telemetry });
    const second = assembleTools({ tools: sessionTools, config: forcedOn, previous: first });
    assembleTools({ tools: coreTools, telemetry });
    expect(second.telemetry).toBe(telemetry);
    expect(telemetry).toMatchObject({
      assemblies: 3,
      activations: 2,
      tokensSaved: first.stats.tokensSaved * 2,
    });
  });

  it('throws a ToolSearchError when an activated session has two tools of one name', () => {
    const twice = () =>
      assembleTools({ tools: [mcpTools[0]!, { ...mcpTools[0]! }], config: forcedOn });
    expect(twice).toThrow(/appears more than once/);
    const shadowed = { ...mcpTools[0]!, source: 'core' as const };
    const error = (() => {
      try {
        assembleTools({ tools: [shadowed, ...mcpTools], config: forcedOn });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ToolSearchError.isInstance(error) && error.code).toBe('duplicate_tool_name');
  });

  it('rejects duplicate names the same way whether tool search activates or not', () => {
    const duplicated = [...coreTools, mcpTools[0]!, { ...mcpTools[0]! }];
    const shadowed = [{ ...mcpTools[0]!, source: 'core' as const }, ...mcpTools];
    const twoVisible = [coreTools[0]!, { ...coreTools[0]! }];
    for (const config of [forcedOn, false, undefined]) {
      for (const tools of [duplicated, shadowed, twoVisible]) {
        expect(() => assembleTools({ tools, config, contextWindow: 200_000 })).toThrow(
          expect.objectContaining({
            code: 'duplicate_tool_name',
            message: expect.stringContaining('resolveToolNames'),
          }),
        );
      }
    }
  });

  it('takes the tools that resolveToolNames names apart, on both sides of the threshold', () => {
    const named = resolveToolNames([
      { server: 'github', tool: mcpTools[0]! },
      { server: 'gitlab', tool: { ...mcpTools[0]! } },
    ]).map((entry) => ({ ...entry.tool, name: entry.name }));
    const off = assembleTools({ tools: named, config: false });
    const on = assembleTools({ tools: named, config: forcedOn });
    expect(off.activated).toBe(false);
    expect(names(off.tools)).toEqual(names(named));
    expect(on.activated).toBe(true);
    expect(names(on.deferred)).toEqual(names(named));
  });

  it('throws a ToolSearchError when tools is not an array', () => {
    expect(() => assembleTools({ tools: 'github' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

describe('assembleTools: the program tool', () => {
  const program = {
    definition: {
      name: 'tool_program',
      description: 'Run a program over the tools.',
      inputSchema: { type: 'object' as const, properties: { source: { type: 'string' } } },
    },
  };
  const many = Array.from({ length: 30 }, (_, index) => ({
    name: `crm_tool_${index}`,
    description: 'Update a customer record in the CRM with new details. '.repeat(4),
    inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } } },
    source: 'mcp' as const,
  }));

  it('lists tool_program after the three bridges when activated, once even when the input still holds it', () => {
    const first = assembleTools({ tools: many, config: { enabled: 'on' }, program });
    expect(first.tools.map((tool) => tool.name).slice(-4)).toEqual([
      'tool_search',
      'tool_describe',
      'tool_call',
      'tool_program',
    ]);
    const stale = [...many, program.definition];
    const again = assembleTools({ tools: stale, config: { enabled: 'on' }, program });
    expect(again.tools.map((tool) => tool.name)).toEqual(first.tools.map((tool) => tool.name));
  });

  it('lists tool_program beside the tools when not activated, and nothing when not given', () => {
    const off = assembleTools({ tools: many, config: { enabled: 'off' }, program });
    expect(off.tools.at(-1)?.name).toBe('tool_program');
    expect(off.tools).toHaveLength(31);
    const without = assembleTools({ tools: many, config: { enabled: 'off' } });
    expect(without.tools.some((tool) => tool.name === 'tool_program')).toBe(false);
  });
});

describe('assembleTools with the previous assembly (hysteresis)', () => {
  const bulk = Array.from({ length: 20 }, (_, index) => ({ ...paddedTool(index), toolset: 'a' }));
  const more = Array.from({ length: 4 }, (_, index) => ({
    ...paddedTool(100 + index),
    toolset: 'b',
  }));
  const all = [...coreTools, ...bulk, ...more];
  // The threshold sits just above the first toolset: both activate, the first alone is in the band.
  const threshold = Math.floor(estimateToolTokens(bulk) * 1.05);
  const config = { threshold_tokens: threshold };

  it('keeps the bridge while a toolset leaves and comes back within the band, so the list stays the same', () => {
    const first = assembleTools({ tools: all, config });
    expect(first.activated).toBe(true);
    const gone = assembleTools({ tools: [...coreTools, ...bulk], config, previous: first });
    expect(gone.decision).toMatchObject({ active: true, reason: 'within-band' });
    expect(names(gone.tools)).toEqual(names(first.tools));
    const back = assembleTools({ tools: all, config, previous: gone });
    expect(back.decision.reason).toBe('above-threshold');
    expect(names(back.tools)).toEqual(names(first.tools));
  });

  it('turns off below the band, and a fresh assembly decides by the threshold alone', () => {
    const first = assembleTools({ tools: all, config });
    const half = bulk.slice(0, 10);
    const small = assembleTools({ tools: [...coreTools, ...half], config, previous: first });
    expect(small.activated).toBe(false);
    expect(assembleTools({ tools: [...coreTools, ...bulk], config }).activated).toBe(false);
  });
});
