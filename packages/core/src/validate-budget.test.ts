import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_ARGUMENT_BYTES,
  inspectInputSchema,
  type SkippedKeyword,
  validateArguments,
} from './validate.js';

// The three hostile schemas of issue 24, item 4. None of these tests is timed: each
// asserts that the check returns and says which keyword it left unchecked and why.
// Before bounded checking, the first held the event loop for seconds, the second for
// minutes (doubling per level), and the third switched off the whole schema.

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

const recursiveAnyOf = {
  type: 'object',
  properties: { tree: { $ref: '#/$defs/node' } },
  $defs: {
    node: {
      anyOf: [
        { type: 'array', items: { $ref: '#/$defs/node' } },
        { type: 'array', items: { $ref: '#/$defs/node' } },
      ],
    },
  },
};

describe('validateArguments within its budget', () => {
  it('checks uniqueItems over a large array in one pass, duplicates found', () => {
    const schema = {
      type: 'object',
      properties: { list: { type: 'array', uniqueItems: true } },
    };
    const list = Array.from({ length: 20_000 }, (_, index) => ({ id: index, tags: ['a', 'b'] }));
    expect(validateArguments(schema, { list })).toMatchObject({ status: 'valid' });
    const duplicated = [...list, { tags: ['a', 'b'], id: 7 }];
    expect(validateArguments(schema, { list: duplicated })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.list', constraint: 'uniqueItems' }],
    });
  });

  it('treats 1 and 1.0, and objects with their keys in another order, as equal for uniqueItems', () => {
    const schema = { type: 'array', uniqueItems: true };
    expect(
      validateArguments(schema, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]).status,
    ).toBe('invalid');
    expect(validateArguments(schema, [1, 1.0]).status).toBe('invalid');
    expect(validateArguments(schema, [1, '1', [1], { 1: 1 }, null, true]).status).toBe('valid');
  });

  it('stops a recursive anyOf that doubles per level, leaves that anyOf unchecked and says so', () => {
    const skipped: SkippedKeyword[] = [];
    const onSkippedKeyword = (warning: SkippedKeyword) => skipped.push(warning);
    const checked = validateArguments(
      recursiveAnyOf,
      { tree: nested(40) },
      { tool: 'hostile_tree', onSkippedKeyword },
    );
    expect(checked.status).toBe('valid');
    const expected = {
      tool: 'hostile_tree',
      keyword: 'anyOf',
      pointer: '/$defs/node/anyOf',
      cause: 'budget',
      reason: expect.stringContaining('evaluations'),
    };
    expect(checked).toMatchObject({ skipped: [expected] });
    expect(skipped).toEqual([expected]);
    // Reported once per tool and keyword, not once per call.
    validateArguments(
      recursiveAnyOf,
      { tree: nested(40) },
      { tool: 'hostile_tree', onSkippedKeyword },
    );
    expect(skipped).toHaveLength(1);
  });

  it('still checks a recursive anyOf whose arguments stay within the budget', () => {
    expect(validateArguments(recursiveAnyOf, { tree: nested(3) })).toMatchObject({
      status: 'invalid',
    });
    expect(validateArguments(recursiveAnyOf, { tree: [[], [[]]] })).toEqual({
      status: 'valid',
      arguments: { tree: [[], [[]]] },
      repairs: [],
    });
  });

  it('skips a pattern whose program times the string exceeds the budget, and checks the rest', () => {
    const schema = {
      type: 'object',
      properties: {
        text: { type: 'string', pattern: '.{1000}.{1000}.{1000}x' },
        count: { type: 'integer' },
      },
    };
    const text = 'a'.repeat(50_000);
    const checked = validateArguments(schema, { text, count: 'many' }, { tool: 'hostile_text' });
    expect(checked).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.count', constraint: 'type' }],
      skipped: [
        {
          tool: 'hostile_text',
          keyword: 'pattern',
          pointer: '/properties/text/pattern',
          cause: 'budget',
        },
      ],
    });
    // A short string is still matched against the pattern.
    expect(validateArguments(schema, { text: 'short' })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.text', constraint: 'pattern' }],
    });
  });

  it('skips a format check of a string too long for it (the url format is quadratic), and checks short ones', () => {
    const schema = {
      type: 'object',
      properties: { link: { type: 'string', format: 'url' }, count: { type: 'integer' } },
    };
    const link = `http://${'a:'.repeat(50_000)}`;
    expect(validateArguments(schema, { link, count: 1 })).toMatchObject({
      status: 'valid',
      skipped: [{ keyword: 'format', pointer: '/properties/link/format', cause: 'budget' }],
    });
    expect(validateArguments(schema, { link: 'not a url' })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.link', constraint: 'format' }],
    });
    expect(validateArguments(schema, { link: 'https://example.com/a?b=c' })).toEqual({
      status: 'valid',
      arguments: { link: 'https://example.com/a?b=c' },
      repairs: [],
    });
  });

  it('leaves a pattern the linear engine cannot run unchecked, (.{1000}){4} or a lookahead, and checks the rest', () => {
    for (const pattern of ['(.{1000}){4}', '^(?!/etc).*$']) {
      const schema = {
        type: 'object',
        properties: { path: { type: 'string', pattern }, count: { type: 'integer' } },
        required: ['path'],
      };
      expect(validateArguments(schema, { path: '/etc/x'.repeat(10_000) })).toMatchObject({
        status: 'valid',
        skipped: [
          { keyword: 'pattern', pointer: '/properties/path/pattern', cause: 'unsupported' },
        ],
      });
      expect(validateArguments(schema, { path: 7, count: 'x' })).toMatchObject({
        status: 'invalid',
        violations: [
          { path: 'arguments.path', constraint: 'type' },
          { path: 'arguments.count', constraint: 'type' },
        ],
      });
    }
  });

  it('drops a patternProperties entry it cannot run together with additionalProperties, and says so', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^(?=x)': { type: 'string' }, '^n_': { type: 'number' } },
      additionalProperties: false,
    };
    expect(validateArguments(schema, { x1: 1, n_a: 'no' })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.n_a', constraint: 'type' }],
      skipped: [
        { keyword: 'patternProperties', pointer: '/patternProperties/^(?=x)' },
        { keyword: 'additionalProperties', pointer: '/additionalProperties' },
      ],
    });
  });

  it('reads draft-04 boolean exclusiveMaximum and exclusiveMinimum as the modern numbers', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: {
        ratio: {
          type: 'number',
          minimum: 0,
          exclusiveMinimum: true,
          maximum: 1,
          exclusiveMaximum: true,
        },
        count: { type: 'integer', maximum: 10, exclusiveMaximum: false },
        odd: { type: 'number', exclusiveMaximum: true },
      },
    };
    expect(validateArguments(schema, { ratio: 0.5, count: 10 })).toMatchObject({
      status: 'valid',
    });
    expect(validateArguments(schema, { ratio: 1 })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.ratio', constraint: 'exclusiveMaximum' }],
    });
    expect(validateArguments(schema, { ratio: 0 })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.ratio', constraint: 'exclusiveMinimum' }],
    });
    // `true` without a `maximum` bounds nothing: that keyword alone is dropped, reported.
    expect(validateArguments(schema, { odd: 3, count: 'x' })).toMatchObject({
      status: 'invalid',
      skipped: [{ keyword: 'exclusiveMaximum', pointer: '/properties/odd/exclusiveMaximum' }],
    });
  });

  it('refuses arguments over the size limit before checking anything, with a violation the model can act on', () => {
    const schema = { type: 'object', properties: { text: { type: 'string' } } };
    const text = 'x'.repeat(DEFAULT_MAX_ARGUMENT_BYTES);
    expect(validateArguments(schema, { text })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments', constraint: 'maxArgumentBytes' }],
    });
    expect(
      validateArguments(schema, { text: 'é'.repeat(600) }, { maxArgumentBytes: 1_000 }),
    ).toMatchObject({ status: 'invalid', violations: [{ constraint: 'maxArgumentBytes' }] });
    expect(
      validateArguments(schema, { text: 'e'.repeat(600) }, { maxArgumentBytes: 1_000 }).status,
    ).toBe('valid');
    expect(() => validateArguments(schema, {}, { maxArgumentBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

describe('validateArguments on ordinary schemas', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const subschema = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.record({ type: fc.constantFrom('integer', 'string', 'array', 'object') }),
      fc.record(
        {
          type: fc.constantFrom('integer', 'number', 'string', 'object', 'array'),
          anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
          properties: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2 }),
          items: tie('node'),
          uniqueItems: fc.boolean(),
          pattern: fc.constantFrom('^a', '[0-9]+', 'x{2,5}$'),
        },
        { requiredKeys: [] },
      ),
    ),
  }));

  it('leaves no keyword of an ordinary schema unchecked, and judges as the native engine does', () => {
    fc.assert(
      fc.property(
        subschema.node,
        fc.dictionary(fc.constantFrom('a', 'b'), json, { maxKeys: 2 }),
        (node, args) => {
          const root = { type: 'object', properties: { a: node, b: node } };
          const checked = validateArguments(root, args, { repair: false });
          expect(checked).not.toHaveProperty('skipped');
          expect(checked.status).not.toBe('unchecked');
          // RegExp and RE2 agree on these patterns: the native engine is the reference.
          const native = validateArguments(root, args, { repair: false, patterns: 'native' });
          expect(checked.status).toBe(native.status);
        },
      ),
      { numRuns: 300 },
    );
    // 300 schemas compiled twice each: room for a worker that shares the cores.
  }, 90_000);
});

describe('inspectInputSchema', () => {
  it('lists the keywords a schema leaves unchecked before any call, with their pointers', () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string', pattern: '^(?!/etc)' },
        limit: { type: 'number', maximum: 5, exclusiveMaximum: true },
      },
    };
    expect(inspectInputSchema(schema)).toEqual({
      status: 'checked',
      skipped: [
        {
          keyword: 'pattern',
          pointer: '/properties/path/pattern',
          cause: 'unsupported',
          reason: expect.stringContaining('linear-time'),
        },
      ],
    });
    expect(inspectInputSchema({ type: 'nonsense' })).toMatchObject({ status: 'unchecked' });
  });

  it('lists what a budget overrun left unchecked once a call met it', () => {
    const schema = structuredClone(recursiveAnyOf);
    validateArguments(schema, { tree: nested(40) });
    expect(inspectInputSchema(schema)).toMatchObject({
      status: 'checked',
      skipped: [{ keyword: 'anyOf', pointer: '/$defs/node/anyOf', cause: 'budget' }],
    });
  });
});
