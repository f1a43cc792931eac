import { assembleTools } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareAnthropicTools } from './anthropic.js';
import { prepareOpenAIResponsesTools } from './openai.js';

const toolArbitrary = (index: number) =>
  fc
    .record({
      source: fc.option(fc.constantFrom('core', 'mcp', 'plugin'), { nil: undefined }),
      alwaysLoad: fc.boolean(),
      description: fc.string({ maxLength: 400 }),
      properties: fc.integer({ min: 0, max: 6 }),
    })
    .map(
      (spec): ToolDefinition => ({
        name: `tool_${index}`,
        description: spec.description,
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: spec.properties }, (_, n) => [`field_${n}`, { type: 'string' }]),
          ),
        },
        ...(spec.source === undefined
          ? {}
          : { source: spec.source as NonNullable<ToolDefinition['source']> }),
        ...(spec.alwaysLoad ? { alwaysLoad: true } : {}),
      }),
    );

const toolsArbitrary = fc
  .integer({ min: 0, max: 10 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => toolArbitrary(index))));

describe('one activation decision', () => {
  it('defers exactly what the bridge assembly defers, for both providers and every mode', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolsArbitrary,
        fc.record({
          enabled: fc.constantFrom('auto', 'on', 'off'),
          threshold_pct: fc.integer({ min: 0, max: 100 }),
        }),
        fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }),
        fc.subarray(['tool_0', 'tool_3', 'tool_7']),
        fc.constantFrom('client', 'hosted', 'bridge'),
        async (tools, config, contextWindow, pinned, mode) => {
          const shared = {
            config,
            pinned,
            ...(contextWindow === undefined ? {} : { contextWindow }),
          };
          const assembly = assembleTools({ tools, ...shared });
          const expected = assembly.deferred.map((tool) => tool.name);
          for (const prepared of [
            await prepareAnthropicTools(tools, { ...shared, mode }),
            await prepareOpenAIResponsesTools(tools, { ...shared, mode }),
          ]) {
            expect(prepared.decision).toEqual(assembly.decision);
            expect(prepared.deferred).toEqual(expected);
            expect(prepared.mode).toBe(assembly.activated ? mode : 'off');
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
