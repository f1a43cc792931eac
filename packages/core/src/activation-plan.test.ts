import { describe, expect, it } from 'vitest';
import { planActivation } from './activation-plan.js';
import { TOOL_CALL } from './classify.js';
import type { ToolSearchConfigInput } from './config.js';
import { ToolSearchError } from './errors.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string, source: ToolDefinition['source'], words = 40): ToolDefinition => ({
  name,
  description: `${name} ${'does a thing '.repeat(words)}`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  source,
});

describe('planActivation', () => {
  it("reports the config's unknown keys through its logger and keeps the defaults", () => {
    const heard: string[] = [];
    const plan = planActivation([tool('gh_issue', 'mcp')], {
      config: { enabeld: 'on' } as ToolSearchConfigInput,
      logger: { warn: (message) => heard.push(message) },
    });
    expect(plan.config.enabled).toBe('auto');
    expect(heard).toEqual(["tool search config: 'enabeld': unknown key, ignored"]);
  });

  it('keeps core and pinned tools visible and defers the rest once they pass the threshold', () => {
    const tools = [tool('bash', 'core'), tool('gh_issue', 'mcp'), tool('pinned_one', 'plugin')];
    const plan = planActivation(tools, { config: { enabled: 'on' }, pinned: ['pinned_one'] });
    expect(plan.visible.map((t) => t.name)).toEqual(['bash', 'pinned_one']);
    expect(plan.deferrable.map((t) => t.name)).toEqual(['gh_issue']);
    expect(plan.decision).toMatchObject({ active: true, reason: 'forced-on' });
    expect(plan.deferrableTokens).toBeGreaterThan(0);
  });

  it('stays off below the threshold and hands back the input without stale bridge tools', () => {
    const stale: ToolDefinition = { ...tool(TOOL_CALL, 'core'), description: 'old bridge' };
    const tools = [tool('bash', 'core'), stale, tool('gh_issue', 'mcp', 1)];
    const plan = planActivation(tools, { contextWindow: 1_000_000 });
    expect(plan.decision).toMatchObject({ active: false, reason: 'below-threshold' });
    expect(plan.tools.map((t) => t.name)).toEqual(['bash', 'gh_issue']);
  });

  it('rejects two tools of one name whichever way the decision goes', () => {
    const tools = [tool('gh_issue', 'mcp'), tool('gh_issue', 'plugin')];
    for (const config of [{ enabled: 'on' as const }, { enabled: 'off' as const }]) {
      let caught: unknown;
      try {
        planActivation(tools, { config });
      } catch (error) {
        caught = error;
      }
      expect(ToolSearchError.isInstance(caught) && caught.code).toBe('duplicate_tool_name');
    }
  });

  it('refuses a tool list that is not an array with a typed error', () => {
    expect(() => planActivation('tools' as never)).toThrowError(ToolSearchError);
  });
});

describe('planActivation with the previous decision', () => {
  it('holds an active plan within the hysteresis band when a toolset leaves', () => {
    const many = (prefix: string) =>
      Array.from({ length: 10 }, (_, i) => ({ ...tool(`${prefix}_${i}`, 'mcp'), toolset: prefix }));
    const both = [...many('github'), ...many('linear')];
    const first = planActivation(both, { config: { threshold_tokens: 1_000 } });
    expect(first.decision.active).toBe(true);
    const threshold = first.deferrableTokens * 0.55;
    const config = { threshold_tokens: Math.floor(threshold) };
    const full = planActivation(both, { config });
    const half = planActivation(many('github'), { config, previous: full.decision });
    expect(half.decision).toMatchObject({ active: true, reason: 'within-band' });
    expect(half.tools.map((t) => t.name)).toHaveLength(10);
    expect(half.visible).toEqual([]);
    expect(planActivation(many('github'), { config }).decision.active).toBe(false);
  });
});
