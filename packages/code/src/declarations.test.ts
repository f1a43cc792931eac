import { describe, expect, it } from 'vitest';
import { declareTool } from './declarations.js';

describe('declareTool', () => {
  it('declares a tool from its input and output schemas, with descriptions as comments', () => {
    const text = declareTool({
      name: 'weather_lookup',
      description: 'Look up the weather.',
      inputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'The city' },
          units: { enum: ['c', 'f'] },
          days: { type: 'array', items: { type: 'integer' } },
          'x-raw': { type: ['string', 'null'] },
        },
        required: ['city'],
      },
      outputSchema: {
        type: 'object',
        properties: { celsius: { type: 'number' } },
        required: ['celsius'],
      },
    });
    expect(text).toBe(
      [
        '/** Look up the weather. */',
        'declare function weather_lookup(args: {',
        '  /** The city */',
        '  city: string;',
        '  units?: "c" | "f";',
        '  days?: number[];',
        '  "x-raw"?: string | null;',
        '}): Promise<{',
        '  celsius: number;',
        '}>;',
      ].join('\n'),
    );
  });

  it('answers unknown for what it cannot read, and never lets a description close its comment', () => {
    const text = declareTool({
      name: 'odd tool',
      description: 'ends */ here',
      inputSchema: {
        type: 'object',
        properties: { deep: { $ref: '#/x' }, list: { type: 'array' } },
      },
    });
    expect(text).toContain('ends *\\/ here');
    expect(text).toContain('deep?: unknown;');
    expect(text).toContain('list?: unknown[];');
    expect(text).toContain('tools.call("odd tool", args)');
    expect(text).toContain('Promise<unknown>');
  });
});
