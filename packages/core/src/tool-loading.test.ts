import { describe, expect, it } from 'vitest';
import { planActivation } from './activation-plan.js';
import { classifyTools } from './classify.js';
import { parseToolSearchConfigWithWarnings } from './config.js';
import { DEFAULT_RUNAWAY_SEARCH_LIMITS } from './runaway-config.js';
import { estimateToolTokens } from './tokens.js';
import { toolLoadingOf } from './tool-loading.js';
import { isToolLoading, TOOL_LOADINGS } from './tool-loading-kinds.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string, toolset: string, words = 40): ToolDefinition => ({
  name,
  description: `${name} ${'does a thing '.repeat(words)}`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  source: toolset === 'core' ? 'core' : 'mcp',
  toolset,
});

const session = [
  tool('bash', 'core'),
  tool('gh_issue', 'mcp-github'),
  tool('fs_read', 'mcp-fs'),
  tool('gh_pr', 'mcp-github'),
  tool('slack_post', 'mcp-slack'),
];
const names = (tools: readonly ToolDefinition[]) => tools.map((entry) => entry.name);

describe('toolLoadingOf', () => {
  it("reads a tool's toolset entry and falls back to auto", () => {
    const loading = { 'mcp-github': 'eager', 'mcp-fs': 'deferred' } as const;
    expect(toolLoadingOf(session[1]!, loading)).toBe('eager');
    expect(toolLoadingOf(session[2]!, loading)).toBe('deferred');
    expect(toolLoadingOf(session[4]!, loading)).toBe('auto');
    expect(toolLoadingOf(session[1]!, undefined)).toBe('auto');
    // A name inherited from Object.prototype is no toolset entry.
    expect(toolLoadingOf(tool('x', 'constructor'), {})).toBe('auto');
  });

  it('knows the three loadings and nothing else', () => {
    expect(TOOL_LOADINGS).toEqual(['eager', 'deferred', 'auto']);
    expect(TOOL_LOADINGS.every(isToolLoading)).toBe(true);
    expect(isToolLoading('lazy')).toBe(false);
  });
});

describe('classifyTools with loading', () => {
  it('keeps the tools of an eager toolset visible, in input order', () => {
    const { visible, deferrable } = classifyTools(session, { loading: { 'mcp-github': 'eager' } });
    expect(names(visible)).toEqual(['bash', 'gh_issue', 'gh_pr']);
    expect(names(deferrable)).toEqual(['fs_read', 'slack_post']);
  });
});

describe('planActivation with toolset loading', () => {
  it('defers a deferred toolset below the threshold and keeps the auto ones visible', () => {
    const plan = planActivation(session, {
      config: { toolset_loading: { 'mcp-fs': 'deferred' } },
      contextWindow: 1_000_000,
    });
    expect(plan.decision).toMatchObject({ active: true, reason: 'toolset-deferred' });
    expect(names(plan.deferrable)).toEqual(['fs_read']);
    expect(names(plan.visible)).toEqual(['bash', 'gh_issue', 'gh_pr', 'slack_post']);
    expect(plan.deferrableTokens).toBe(estimateToolTokens([session[2]!]));
    expect(plan.decision.deferrableTokens).toBe(plan.deferrableTokens);
  });

  it('defers every deferrable tool above the threshold, whatever their loading', () => {
    const plan = planActivation(session, {
      config: { toolsetLoading: { 'mcp-fs': 'deferred', 'mcp-github': 'eager' } },
      contextWindow: 100,
    });
    expect(plan.decision).toMatchObject({ active: true, reason: 'above-threshold' });
    expect(names(plan.deferrable)).toEqual(['fs_read', 'slack_post']);
    expect(names(plan.visible)).toEqual(['bash', 'gh_issue', 'gh_pr']);
  });

  it('leaves off alone: a deferred toolset does not turn tool search on', () => {
    const plan = planActivation(session, {
      config: { enabled: 'off', toolsetLoading: { 'mcp-fs': 'deferred' } },
    });
    expect(plan.decision).toMatchObject({ active: false, reason: 'disabled' });
  });

  it('changes nothing for a session without a deferred toolset below the threshold', () => {
    const plain = planActivation(session, { contextWindow: 1_000_000 });
    const eager = planActivation(session, {
      config: { toolsetLoading: { 'mcp-slack': 'auto' } },
      contextWindow: 1_000_000,
    });
    expect(eager.decision).toEqual(plain.decision);
    expect(names(eager.deferrable)).toEqual(names(plain.deferrable));
  });
});

describe('parseToolSearchConfig: toolset loading and runaway limits', () => {
  it('reads both sections in snake_case and warns about what it cannot use', () => {
    const { config, warnings } = parseToolSearchConfigWithWarnings({
      toolset_loading: { 'mcp-a': 'Eager', 'mcp-b': 'deferred', 'mcp-c': 'lazy' },
      runaway: { nudge_after: 3, max_searches: '12', window_ms: -1, repeatWindowMs: 0, x: 1 },
    });
    expect(config.toolsetLoading).toEqual({ 'mcp-a': 'eager', 'mcp-b': 'deferred' });
    expect(config.runaway).toEqual({
      ...DEFAULT_RUNAWAY_SEARCH_LIMITS,
      nudgeAfter: 3,
      maxSearches: 12,
      repeatWindowMs: 0,
    });
    expect(warnings.map((warning) => warning.key).sort()).toEqual([
      'runaway.window_ms',
      'runaway.x',
      'toolset_loading.mcp-c',
    ]);
  });

  it('leaves both out when they are not written', () => {
    const { config } = parseToolSearchConfigWithWarnings({ threshold_pct: 5 });
    expect(config).not.toHaveProperty('toolsetLoading');
    expect(config).not.toHaveProperty('runaway');
  });
});
