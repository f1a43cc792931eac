// A new user's case: 202 small tools, just under the threshold of a 128k context. Tool
// search is inactive, and every place a user looks says so and why. Runs on ai 7 and ai 6.
import { ToolSearchError } from '@tool-search/core';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { smallToolSet } from './__fixtures__/small-tools.js';
import { decideToolSetActivation } from './activation.js';
import { createScriptedModel } from './testing/index.js';
import { withToolSearch } from './with-tool-search.js';

function recorder() {
  const warnings: string[] = [];
  const infos: string[] = [];
  return {
    warnings,
    infos,
    logger: {
      warn: (message: string) => void warnings.push(message),
      info: (message: string) => void infos.push(message),
    },
  };
}

describe('withToolSearch below the threshold: nothing silent', () => {
  it('carries the decision with its reason and numbers: 202 small tools under 10% of 128k', async () => {
    const search = withToolSearch(smallToolSet(), {
      contextWindow: 128_000,
      logger: recorder().logger,
    });
    const decision = await search.decision;
    expect(Object.keys(smallToolSet())).toHaveLength(202);
    expect(decision).toMatchObject({
      active: false,
      reason: 'below-threshold',
      thresholdTokens: 12_800,
    });
    expect(decision.deferrableTokens).toBeGreaterThan(12_000);
    expect(decision.deferrableTokens).toBeLessThan(12_800);
  });

  it('warns once through the logger, naming the reason and both numbers', async () => {
    const { warnings, infos, logger } = recorder();
    const search = withToolSearch(smallToolSet(), { contextWindow: 128_000, logger });
    const { deferrableTokens } = await search.decision;
    await search.prepareStep({ messages: [] });
    await search.prepareStep({ messages: [] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('tool search is inactive');
    expect(warnings[0]).toContain(deferrableTokens.toLocaleString('en-US'));
    expect(warnings[0]).toContain('12,800-token threshold');
    expect(infos).toEqual([]);
  });

  it('tells an info logger the decision when tool search is active, and warns of nothing', async () => {
    const { warnings, infos, logger } = recorder();
    const search = withToolSearch(smallToolSet(), { contextWindow: 100_000, logger });
    expect(await search.decision).toMatchObject({ active: true, reason: 'above-threshold' });
    expect(infos).toHaveLength(1);
    expect(infos[0]).toContain('tool search is active');
    expect(warnings).toEqual([]);
  });

  it("answers the model's tool_search and tool_call with an error naming the reason, not a bare unknown tool", async () => {
    const calls: string[] = [];
    const { logger } = recorder();
    const scriptWarnings: string[] = [];
    const search = withToolSearch(smallToolSet(calls), { contextWindow: 128_000, logger });
    const model = createScriptedModel(
      [
        { tool: 'tool_search', input: { query: 'refund an order' } },
        { tool: 'tool_call', input: { name: 'create_refund', arguments: { id: 'o1' } } },
        { tool: 'create_refund', input: { id: 'o1' } },
        { text: 'Refunded.' },
      ],
      { logger: { warn: (message) => void scriptWarnings.push(message) } },
    );
    const result = await generateText({
      model,
      ...search,
      stopWhen: stepCountIs(5),
      prompt: 'Refund order o1',
    } as Parameters<typeof generateText>[0]);
    const parts = result.steps.flatMap((step) => step.content) as {
      type: string;
      toolName: string;
      error?: unknown;
      invalid?: boolean;
    }[];
    const tokens = (await search.decision).deferrableTokens.toLocaleString('en-US');
    const errors = parts.filter((part) => part.type === 'tool-error');
    expect(errors.map((part) => part.toolName)).toEqual(['tool_search', 'tool_call']);
    for (const part of errors) {
      expect(String(part.error)).toContain(
        `'${part.toolName}' is not available: tool search is inactive in this conversation (reason: below-threshold: its tools come to ${tokens} tokens, under the 12,800-token threshold)`,
      );
      expect(String(part.error)).toContain('Call the tools directly, by their names.');
    }
    const invalid = parts.filter((part) => part.type === 'tool-call' && part.invalid);
    expect(invalid).toHaveLength(2);
    for (const part of invalid) {
      const cause = (part.error as { cause?: unknown }).cause;
      expect(ToolSearchError.isInstance(cause) && cause.code).toBe('tool_search_inactive');
    }
    // The model read the reason, then called the tool directly, which ran.
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('below-threshold');
    expect(calls).toEqual(['create_refund']);
    // The scripted model said its script called tools its steps did not have.
    expect(scriptWarnings).toHaveLength(2);
    expect(scriptWarnings[0]).toContain("turn 1 calls 'tool_search'");
    expect(scriptWarnings[0]).toContain('not among the tools of its step');
  });

  it('answers a bridge tool run outside the loop as data naming the reason', async () => {
    const search = withToolSearch(smallToolSet(), {
      contextWindow: 128_000,
      logger: recorder().logger,
    });
    const execute = search.tools['tool_search']?.execute as (
      input: unknown,
      options: unknown,
    ) => Promise<unknown>;
    const answer = (await execute({ query: 'refund' }, { toolCallId: 'c1', messages: [] })) as {
      error: string;
      reason: string;
    };
    expect(answer.reason).toBe('below-threshold');
    expect(answer.error).toContain("'tool_search' is not available: tool search is inactive");
  });
});

describe('decideToolSetActivation', () => {
  it('takes an AI SDK ToolSet and decides as withToolSearch does', async () => {
    const tools = smallToolSet();
    const activation = await decideToolSetActivation(tools, { contextWindow: 128_000 });
    const search = withToolSearch(tools, { contextWindow: 128_000, logger: recorder().logger });
    expect(activation.decision).toEqual(await search.decision);
    expect(activation.deferred).toEqual([]);
    const pinned = await decideToolSetActivation(tools, {
      contextWindow: 128_000,
      core: ['get_invoice'],
    });
    expect(pinned.visible.find((tool) => tool.name === 'get_invoice')?.source).toBe('core');
  });

  it('refuses what is neither a list nor a tool set with a typed error', () => {
    for (const bad of [null, 'tools', 42]) {
      expect(() => decideToolSetActivation(bad as never)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
  });
});
