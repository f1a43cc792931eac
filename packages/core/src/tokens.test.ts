import { describe, expect, it } from 'vitest';
import { charsPerTokenCounter, estimateToolTokens, modelFacingJson } from './tokens.js';
import type { ToolDefinition } from './types.js';

const withParams = (count: number): ToolDefinition => ({
  name: 'grow',
  description: 'A tool whose schema grows',
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `param_${i}`,
        { type: 'string', description: `Parameter number ${i}` },
      ]),
    ),
  },
});

describe('estimateToolTokens', () => {
  it('is ceil(chars / 4) over the compact model-facing JSON', () => {
    const tool = withParams(1);
    const json = modelFacingJson(tool);
    expect(json).toBe(
      JSON.stringify({
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
      }),
    );
    expect(estimateToolTokens([tool])).toBe(Math.ceil(json.length / 4));
  });

  it('grows with schema size', () => {
    expect(estimateToolTokens([withParams(10)])).toBeGreaterThan(
      estimateToolTokens([withParams(1)]),
    );
    expect(estimateToolTokens([withParams(1), withParams(1)])).toBe(
      2 * estimateToolTokens([withParams(1)]),
    );
    expect(estimateToolTokens([])).toBe(0);
  });

  it('counts each tool once per counter and reuses the count for the same tool object', () => {
    let calls = 0;
    const counter = {
      count(text: string) {
        calls++;
        return charsPerTokenCounter.count(text);
      },
    };
    const tools = [withParams(2), withParams(3)];
    const first = estimateToolTokens(tools, counter);
    expect(estimateToolTokens(tools, counter)).toBe(first);
    expect(calls).toBe(2);
  });
});
