import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { lazySchema } from './lazy-zod.js';
import { toolDefinitionSchema } from './tool-definition.js';

describe('lazySchema', () => {
  it('builds the schema on first use and stands for it everywhere a schema goes', () => {
    let built = 0;
    const schema = lazySchema((lazy) => {
      built++;
      return lazy.object({ n: lazy.number().int() });
    });
    expect(built).toBe(0);
    expect(schema.parse({ n: 2 })).toEqual({ n: 2 });
    expect(schema.safeParse({ n: 2.5 }).success).toBe(false);
    expect(built).toBe(1);
    // Composed into a schema of the zod the application imports, and checked with instanceof.
    const outer = z.object({ inner: schema, list: z.array(schema) });
    expect(outer.parse({ inner: { n: 1 }, list: [{ n: 3 }] })).toEqual({
      inner: { n: 1 },
      list: [{ n: 3 }],
    });
    expect(outer.safeParse({ inner: { n: 'x' }, list: [] }).success).toBe(false);
    expect(schema instanceof z.ZodType).toBe(true);
    expect(schema instanceof z.ZodObject).toBe(true);
    expect('shape' in schema).toBe(true);
    expect(Object.keys(schema)).toEqual(expect.arrayContaining(['def', 'type', 'parse']));
    expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(z.object({ n: z.number().int() })));
    expect(built).toBe(1);
  });

  it('keeps the messages of toolDefinitionSchema', () => {
    const result = toolDefinitionSchema.safeParse({
      name: 'bad name',
      inputSchema: { type: 'array' },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'may only contain letters, digits, _ - . : /',
      "must be a JSON Schema with type 'object'",
    ]);
    expect(result.error instanceof z.ZodError).toBe(true);
  });
});
