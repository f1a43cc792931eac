/**
 * Schemas and arguments on which the compiled (ajv) and the interpreted validator must
 * answer alike: every keyword family of 2020-12, 2019-09, draft-07 and draft-04 that
 * tool schemas use, repairs, formats, patterns the linear engine cannot run, malformed
 * schemas, and arguments that overrun each part of the check's budget.
 */
export interface EngineCase {
  name: string;
  schema: Record<string, unknown>;
  data: unknown[];
}

export const ENGINE_CORPUS: EngineCase[] = [
  {
    name: 'unevaluatedProperties with allOf',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } } }],
      properties: { b: { type: 'integer' } },
      unevaluatedProperties: false,
    },
    data: [{ a: 'x', b: 1 }, { a: 'x', c: 1 }, { b: '2' }, {}, { a: 1 }],
  },
  {
    name: 'unevaluated with anyOf/oneOf/if',
    schema: {
      type: 'object',
      anyOf: [
        { properties: { a: { const: 1 } }, required: ['a'] },
        { properties: { b: { const: 2 } }, required: ['b'] },
      ],
      oneOf: [{ properties: { c: true } }, { properties: { d: true }, required: ['d'] }],
      if: { properties: { kind: { const: 'x' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword.
      then: { properties: { x: { type: 'number' } } },
      else: { properties: { y: { type: 'number' } } },
      unevaluatedProperties: false,
    },
    data: [
      { a: 1 },
      { a: 1, z: 1 },
      { b: 2, c: 1 },
      { a: 1, kind: 'x', x: 2 },
      { a: 1, kind: 'x', y: 2 },
      { a: 1, y: 3 },
      { a: 2 },
      { a: 1, d: 1 },
    ],
  },
  {
    name: 'prefixItems/items/unevaluatedItems/contains',
    schema: {
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }],
      items: { type: 'boolean' },
      contains: { const: true },
      minContains: 1,
      maxContains: 2,
    },
    data: [['a', 1, true], ['a', 1], ['a', '1', true], ['a', 1, true, true, true], [1], []],
  },
  {
    name: 'unevaluatedItems',
    schema: {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      anyOf: [{ prefixItems: [true, { type: 'number' }] }],
      unevaluatedItems: false,
    },
    data: [['a', 1], ['a', 1, 2], ['a'], [1, 'x']],
  },
  {
    name: 'draft-07 tuple items',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
      additionalItems: false,
    },
    data: [['a', 1], ['a', 1, 2], ['a', 'b'], []],
  },
  {
    name: 'dependentRequired/Schemas and dependencies',
    schema: {
      type: 'object',
      dependentRequired: { a: ['b', 'c'] },
      dependentSchemas: { d: { required: ['e'] } },
      dependencies: { f: ['g'], h: { properties: { i: { type: 'string' } } } },
    },
    data: [
      { a: 1, b: 1, c: 1 },
      { a: 1 },
      { d: 1 },
      { d: 1, e: 1 },
      { f: 1 },
      { h: 1, i: 2 },
      { h: 1, i: 'x' },
    ],
  },
  {
    name: '$defs $ref $anchor',
    schema: {
      $defs: {
        pos: { $anchor: 'pos', type: 'integer', minimum: 1 },
        list: { type: 'array', items: { $ref: '#pos' } },
      },
      type: 'object',
      properties: { n: { $ref: '#/$defs/pos' }, l: { $ref: '#/$defs/list' } },
      required: ['n'],
    },
    data: [{ n: 1 }, { n: 0 }, { n: '3' }, { n: 2, l: [1, 2, 0] }, { n: 2, l: ['4'] }, {}],
  },
  {
    name: '$id and relative $ref',
    schema: {
      $id: 'https://example.com/root.json',
      $defs: { a: { $id: 'a.json', type: 'string', $defs: { b: { type: 'number' } } } },
      properties: { x: { $ref: 'a.json' }, y: { $ref: 'a.json#/$defs/b' } },
    },
    data: [{ x: 'x', y: 1 }, { x: 1 }, { y: 'y' }],
  },
  {
    name: 'recursive tree',
    schema: {
      $defs: {
        node: {
          type: 'object',
          properties: {
            value: { type: 'integer' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['value'],
          additionalProperties: false,
        },
      },
      $ref: '#/$defs/node',
    },
    data: [
      { value: 1, children: [{ value: 2 }, { value: '3' }] },
      { value: 1, children: [{ v: 2 }] },
      { value: 1 },
    ],
  },
  {
    name: '$dynamicRef',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/tree',
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { data: true, children: { type: 'array', items: { $dynamicRef: '#node' } } },
    },
    data: [{ data: 1, children: [{ data: 2, children: [] }] }, { children: [1] }],
  },
  {
    name: '$recursiveRef 2019-09',
    schema: {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $id: 'https://example.com/r',
      $recursiveAnchor: true,
      type: 'object',
      properties: { c: { type: 'array', items: { $recursiveRef: '#' } } },
    },
    data: [{ c: [{ c: [] }] }, { c: [1] }],
  },
  {
    name: 'formats',
    schema: {
      type: 'object',
      properties: {
        e: { type: 'string', format: 'email' },
        d: { type: 'string', format: 'date-time' },
        u: { format: 'uri' },
        id: { format: 'uuid' },
        ip: { format: 'ipv4' },
        h: { format: 'hostname' },
        dt: { format: 'date' },
        i32: { type: 'number', format: 'int32' },
        x: { format: 'unknown-format' },
      },
    },
    data: [
      {
        e: 'a@b.co',
        d: '2024-01-01T00:00:00Z',
        u: 'https://x.y/z',
        id: '123e4567-e89b-12d3-a456-426614174000',
        ip: '1.2.3.4',
        h: 'example.com',
        dt: '2024-02-30',
        i32: 5,
        x: 'q',
      },
      {
        e: 'nope',
        d: 'yesterday',
        u: 'no uri',
        id: 'x',
        ip: '999.1.1.1',
        h: '-bad-',
        dt: 'x',
        i32: 2 ** 40,
      },
      { e: 'x'.repeat(9000) + '@a.b' },
    ],
  },
  {
    name: 'patterns',
    schema: {
      type: 'object',
      properties: {
        s: { type: 'string', pattern: '^[a-z]+$' },
        t: { type: 'string', pattern: '^(?!etc)' },
        u: { pattern: '\\d{3}' },
      },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: { type: 'number' },
    },
    data: [
      { s: 'abc', t: 'x', u: '123', 'x-a': 'q', z: 1 },
      { s: 'ABC', t: 'etc', u: '12', 'x-a': 1, z: 'q' },
      { s: 'a'.repeat(100000) },
    ],
  },
  {
    name: 'propertyNames min/max',
    schema: {
      type: 'object',
      propertyNames: { maxLength: 3, pattern: '^[a-z]*$' },
      minProperties: 1,
      maxProperties: 2,
    },
    data: [{ ab: 1 }, { abcd: 1 }, {}, { a: 1, b: 2, c: 3 }, { A: 1 }],
  },
  {
    name: 'nullable and enum',
    schema: {
      type: 'object',
      properties: {
        p: { type: 'string', nullable: true, enum: ['low', 'high'] },
        q: { nullable: true, type: 'integer' },
      },
    },
    data: [{ p: null, q: null }, { p: 'mid' }, { q: '5' }, { p: 'low', q: 4 }],
  },
  {
    name: 'repairs',
    schema: {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        f: { type: 'number' },
        b: { type: 'boolean' },
        o: { type: 'object' },
        r: { type: 'object', required: ['a'] },
        u: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        arr: { type: 'array', items: { type: 'integer' } },
      },
      additionalProperties: false,
    },
    data: [
      { n: '5' },
      { f: '4.5' },
      { b: 'true' },
      { o: '' },
      { o: '{}' },
      { r: '' },
      { u: '7' },
      { arr: ['1', 2, 'x'] },
      { n: '5.5' },
      { n: ' 12 ' },
      { n: '99999999999999999999' },
    ],
  },
  {
    name: 'numbers',
    schema: {
      type: 'object',
      properties: {
        m: { multipleOf: 0.01 },
        x: { exclusiveMinimum: 0, exclusiveMaximum: 10 },
        y: { minimum: 1, maximum: 5 },
        z: { type: 'integer' },
      },
    },
    data: [
      { m: 0.07, x: 5, y: 3, z: 1.0 },
      { m: 0.075, x: 0, y: 6, z: 1.5 },
      { m: 1e21, x: 10, y: 0 },
    ],
  },
  {
    name: 'strings',
    schema: { type: 'object', properties: { s: { minLength: 2, maxLength: 3 } } },
    data: [{ s: '💩💩' }, { s: 'a' }, { s: 'abcd' }],
  },
  {
    name: 'oneOf not',
    schema: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 2 }], not: { const: 3 } },
    data: [1, 2.5, 3, 4, 'x'],
  },
  {
    name: 'uniqueItems',
    schema: { type: 'array', uniqueItems: true },
    data: [
      [1, 2],
      [1, 1],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [1, 1.0],
      Array.from({ length: 5000 }, (_, i) => i),
    ],
  },
  {
    name: 'draft-04 exclusive',
    schema: {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { n: { maximum: 5, exclusiveMaximum: true }, m: { exclusiveMinimum: true } },
    },
    data: [{ n: 5 }, { n: 4 }, { m: 1 }],
  },
  {
    name: 'budget: exponential anyOf',
    schema: {
      $defs: {
        x: {
          anyOf: [
            { $ref: '#/$defs/x' },
            { type: 'array', items: { $ref: '#/$defs/x' } },
            { type: 'integer' },
          ],
        },
      },
      type: 'object',
      properties: { v: { $ref: '#/$defs/x' } },
    },
    data: [{ v: 1 }, { v: [[[[[['x']]]]]] }],
  },
  {
    name: 'budget: nested anyOf blowup',
    schema: {
      $defs: {
        n: {
          anyOf: [
            { type: 'object', properties: { a: { $ref: '#/$defs/n' } } },
            { type: 'object', properties: { a: { $ref: '#/$defs/n' } }, required: ['a'] },
            { type: 'null' },
          ],
        },
      },
      type: 'object',
      properties: { t: { $ref: '#/$defs/n' } },
    },
    data: [{ t: null }, { t: JSON.parse('{"a":'.repeat(30) + 'null' + '}'.repeat(30)) }],
  },
  {
    name: 'budget: pattern steps',
    schema: {
      type: 'object',
      properties: {
        s: { type: 'array', items: { type: 'string', pattern: '^(a|b|c|d|e|f|g|h|i|j)+x$' } },
      },
    },
    data: [{ s: Array.from({ length: 40 }, () => 'a'.repeat(20000)) }],
  },
  {
    name: 'budget: formats',
    schema: {
      type: 'object',
      properties: { s: { type: 'array', items: { type: 'string', format: 'email' } } },
    },
    data: [{ s: Array.from({ length: 12 }, () => 'a'.repeat(7000) + '@b.c') }],
  },
  {
    name: 'malformed',
    schema: { type: 'object', properties: { a: { type: 'strin' } } },
    data: [{ a: 1 }],
  },
  { name: 'malformed 2', schema: { type: 'object', required: 'a' }, data: [{ a: 1 }] },
  {
    name: 'malformed 3',
    schema: { type: 'object', properties: { a: { minimum: 'x' } } },
    data: [{ a: 1 }],
  },
  {
    name: 'id keyword',
    schema: { type: 'object', id: 'http://x/y', properties: { a: { type: 'string' } } },
    data: [{ a: 1 }],
  },
  {
    name: 'external ref',
    schema: { type: 'object', properties: { a: { $ref: 'https://example.com/other.json' } } },
    data: [{ a: 1 }],
  },
  {
    name: 'false schemas',
    schema: { type: 'object', properties: { a: false, b: true }, additionalProperties: false },
    data: [{ a: 1 }, { b: 1 }, { c: 1 }],
  },
  {
    name: 'constructor quirk',
    schema: {
      type: 'object',
      required: ['constructor'],
      properties: { toString: { type: 'string' } },
    },
    data: [{}, { constructor: 1 }],
  },
];
