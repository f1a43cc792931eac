import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from './gemini-schema.js';
import { geminiSchemaProblems } from './testing/gemini-rules.js';

describe('toGeminiSchema', () => {
  it('upper-cases types, turns a null type into nullable and counts into int64 strings', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          name: { type: ['string', 'null'], maxLength: 40 },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
          level: { type: 'integer', minimum: 1, format: 'int32' },
        },
        required: ['name', 'gone'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        name: { type: 'STRING', nullable: true, maxLength: '40' },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: '5' },
        level: { type: 'INTEGER', minimum: 1, format: 'int32' },
      },
      required: ['name'],
    });
  });

  it('inlines local $refs, turns oneOf into anyOf, const into enum, and describes a numeric enum', () => {
    const out = toGeminiSchema({
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } } } },
      properties: {
        at: { $ref: '#/$defs/point' },
        shape: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        kind: { const: 'circle' },
        size: { type: 'integer', enum: [1, 2, 3], description: 'Size.' },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    });
    expect(out.properties).toEqual({
      at: { type: 'OBJECT', properties: { x: { type: 'NUMBER' } } },
      shape: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
      kind: { enum: ['circle'], type: 'STRING' },
      size: { type: 'INTEGER', description: 'Size. One of [1,2,3].' },
      maybe: { type: 'STRING', nullable: true },
    });
  });

  it('cuts a recursive schema instead of looping', () => {
    const out = toGeminiSchema({
      type: 'object',
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      properties: { root: { $ref: '#/$defs/node' } },
    });
    expect(geminiSchemaProblems(out)).toEqual([]);
    expect(JSON.stringify(out).length).toBeLessThan(2_000);
  });

  it('gives a schema Gemini accepts for any JSON Schema-like input (the stand-in checks it as the API does)', () => {
    const leaf = fc.oneof(
      fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null') }),
      fc.record({ enum: fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 1 }) }),
      fc.record({
        type: fc.constant('string'),
        format: fc.constantFrom('email', 'date-time', 'uri'),
      }),
      fc.record({ $ref: fc.constantFrom('#/$defs/a', '#/nowhere', 'http://x') }),
      fc.record(
        { type: fc.constantFrom('array', 'string'), maxItems: fc.nat(9), minLength: fc.nat(9) },
        { requiredKeys: ['type'] },
      ),
      fc.anything(),
    );
    const schema = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.record({ type: fc.constant('array'), items: tie('node'), minItems: fc.nat(5) }),
        fc.record({ anyOf: fc.array(tie('node'), { maxLength: 3 }) }),
        fc.record({ oneOf: fc.array(tie('node'), { maxLength: 3 }) }),
        fc.record({ allOf: fc.array(tie('node'), { maxLength: 2 }) }),
        fc.record(
          {
            type: fc.constant('object'),
            properties: fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
            required: fc.array(fc.string(), { maxLength: 3 }),
            additionalProperties: fc.boolean(),
          },
          { requiredKeys: ['type'] },
        ),
      ),
    })).node;
    fc.assert(
      fc.property(schema, (input) => {
        const root = {
          type: 'object',
          $defs: { a: { type: 'string' } },
          properties: { value: input },
        };
        expect(geminiSchemaProblems(toGeminiSchema(root))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
