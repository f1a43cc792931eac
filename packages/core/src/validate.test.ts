import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateArguments } from './validate.js';

const schema = {
  type: 'object',
  properties: {
    priority: { type: 'string', enum: ['low', 'high'] },
    options: {
      type: 'object',
      properties: { count: { type: 'integer' }, ratio: { type: 'number' } },
      required: ['count'],
    },
    filters: { type: 'object', properties: { tag: { type: 'string' } } },
    dry_run: { type: 'boolean' },
    note: { type: 'string', nullable: true },
    level: { type: 'string', enum: ['a', 'b'], nullable: true },
  },
  additionalProperties: false,
};

describe('validateArguments', () => {
  it('returns arguments that fit as they are, the very object, with no repairs', () => {
    const args = { priority: 'low', options: { count: 3 } };
    const checked = validateArguments(schema, args);
    expect(checked).toEqual({ status: 'valid', arguments: args, repairs: [] });
    expect(checked.status === 'valid' && checked.arguments).toBe(args);
  });

  it('names the path and the constraint of each violation', () => {
    expect(
      validateArguments(schema, {
        priority: 'urgent',
        options: { count: 'not-an-integer' },
        extra: 1,
      }),
    ).toEqual({
      status: 'invalid',
      total: 3,
      violations: expect.arrayContaining([
        {
          path: 'arguments.priority',
          constraint: 'enum',
          message: 'must be one of ["low","high"]',
        },
        { path: 'arguments.options.count', constraint: 'type', message: 'must be integer' },
        {
          path: 'arguments.extra',
          constraint: 'additionalProperties',
          message: 'is not an allowed property',
        },
      ]),
    });
    expect(validateArguments(schema, { options: {} })).toMatchObject({
      status: 'invalid',
      violations: [{ path: 'arguments.options.count', constraint: 'required' }],
    });
  });

  it('repairs digits for an integer or a number, true/false for a boolean, and leaves the input alone', () => {
    const args = { options: { count: '42', ratio: '-0.5' }, dry_run: 'false' };
    expect(validateArguments(schema, args)).toEqual({
      status: 'valid',
      arguments: { options: { count: 42, ratio: -0.5 }, dry_run: false },
      repairs: [
        { path: 'arguments.options.count', from: '42', to: 42 },
        { path: 'arguments.options.ratio', from: '-0.5', to: -0.5 },
        { path: 'arguments.dry_run', from: 'false', to: false },
      ],
    });
    expect(args).toEqual({ options: { count: '42', ratio: '-0.5' }, dry_run: 'false' });
  });

  it.each(['4.5', '1e3', '007', 'forty-two', '', '9007199254740993'])(
    'does not guess an integer from %j',
    (count) => {
      expect(validateArguments(schema, { options: { count } })).toMatchObject({
        status: 'invalid',
        violations: [{ path: 'arguments.options.count', constraint: 'type' }],
      });
    },
  );

  it('repairs "" or "{}" for an object that requires nothing, never for one with required fields', () => {
    for (const filters of ['', '{}', ' { } ']) {
      expect(validateArguments(schema, { filters })).toMatchObject({
        status: 'valid',
        arguments: { filters: {} },
      });
    }
    for (const options of ['', '{}']) {
      expect(validateArguments(schema, { options })).toEqual({
        status: 'invalid',
        total: 1,
        violations: [{ path: 'arguments.options', constraint: 'type', message: 'must be object' }],
      });
    }
  });

  it('lets null through where the schema says nullable: true, an enum too', () => {
    expect(validateArguments(schema, { note: null, level: null })).toMatchObject({
      status: 'valid',
    });
    expect(validateArguments(schema, { priority: null })).toMatchObject({ status: 'invalid' });
    expect(validateArguments(schema, { level: 'c' })).toMatchObject({ status: 'invalid' });
    const untyped = { type: 'object', properties: { any: { nullable: true } } };
    expect(validateArguments(untyped, { any: null })).toMatchObject({ status: 'valid' });
    // A property called "nullable" is a property, not the keyword.
    const named = {
      type: 'object',
      properties: { nullable: { type: 'boolean' } },
      required: ['nullable'],
    };
    expect(validateArguments(named, {})).toMatchObject({ status: 'invalid' });
  });

  it('answers unchecked for a schema it cannot check: malformed, external $ref, not an object', () => {
    const malformed = { type: 'object', properties: { a: { type: 'nonsense' } } };
    const external = {
      type: 'object',
      properties: { a: { $ref: 'https://example.com/schemas/a.json' } },
    };
    for (const bad of [malformed, external, null, 'object', []]) {
      expect(validateArguments(bad, { a: 1 })).toEqual({
        status: 'unchecked',
        reason: expect.any(String),
      });
    }
    expect(validateArguments(external, {})).toMatchObject({
      reason: expect.stringContaining('https://example.com/schemas/a.json'),
    });
  });

  it('leaves only a lookaround pattern unchecked with linear patterns, and checks it natively', () => {
    const lookahead = {
      type: 'object',
      properties: { path: { type: 'string', pattern: '^(?!/etc).*$' } },
    };
    expect(validateArguments(lookahead, { path: '/etc/x' })).toMatchObject({
      status: 'valid',
      skipped: [
        {
          keyword: 'pattern',
          pointer: '/properties/path/pattern',
          cause: 'unsupported',
          reason: expect.stringContaining("patterns: 'native'"),
        },
      ],
    });
    expect(validateArguments(lookahead, { path: 7 })).toMatchObject({ status: 'invalid' });
    expect(validateArguments(lookahead, { path: '/etc/x' }, { patterns: 'native' })).toMatchObject({
      status: 'invalid',
    });
  });

  it('repairs nothing with repair: false', () => {
    expect(validateArguments(schema, { options: { count: '4' } }, { repair: false })).toMatchObject(
      { status: 'invalid', violations: [{ path: 'arguments.options.count', constraint: 'type' }] },
    );
  });

  it('repairs for the one branch of an anyOf a string fits', () => {
    const oneFits = {
      type: 'object',
      properties: { n: { anyOf: [{ type: 'integer' }, { type: 'array' }] } },
    };
    expect(validateArguments(oneFits, { n: '5' })).toMatchObject({
      status: 'valid',
      arguments: { n: 5 },
    });
    expect(validateArguments(oneFits, { n: 'five' })).toMatchObject({ status: 'invalid' });
  });

  it('lists at most maxViolations and counts them all', () => {
    const checked = validateArguments(schema, { a: 1, b: 2, c: 3, d: 4 }, { maxViolations: 2 });
    expect(checked).toMatchObject({ status: 'invalid', total: 4 });
    expect(checked.status === 'invalid' && checked.violations).toHaveLength(2);
  });

  it('compiles a schema once, and an equal schema in a new object not again', () => {
    let reads = 0;
    const counted = () =>
      new Proxy(
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        {
          get(target, key, receiver) {
            reads++;
            return Reflect.get(target, key, receiver);
          },
        },
      );
    const first = counted();
    validateArguments(first, { a: 'x' });
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) validateArguments(first, { a: String(i) });
    expect(reads).toBe(afterFirst);
    // The second object is read once, to key it by content; ajv never walks it.
    const second = counted();
    const before = reads;
    validateArguments(second, { a: 'x' });
    const keyed = reads - before;
    validateArguments(second, { a: 'y' });
    expect(reads - before).toBe(keyed);
    expect(keyed).toBeLessThan(afterFirst);
  });

  it('cuts the path of a huge property name', () => {
    const key = 'k'.repeat(100_000);
    const checked = validateArguments(schema, { [key]: 1 });
    expect(checked.status === 'invalid' && checked.violations[0]!.path).toMatch(
      /^arguments\.k{290}…\(99710 more characters\)$/,
    );
  });

  it('refuses bad options with a typed error', () => {
    expect(() => validateArguments(schema, {}, { patterns: 'fast' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => validateArguments(schema, {}, { maxViolations: 0 })).toThrow(/maxViolations/);
  });
});

describe('validateArguments on any input', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const subschema = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      {
        arbitrary: fc.record({
          type: fc.constantFrom('integer', 'number', 'boolean', 'object', 'string'),
        }),
        weight: 3,
      },
      fc.record(
        {
          type: fc.constantFrom(
            'integer',
            'number',
            'boolean',
            'string',
            'object',
            'array',
            'null',
          ),
          nullable: fc.boolean(),
          enum: fc.array(json, { minLength: 1, maxLength: 3 }),
          required: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }),
          properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 2 }),
          additionalProperties: fc.boolean(),
          items: tie('node'),
        },
        { requiredKeys: [] },
      ),
      json,
    ),
  }));

  it('never throws, and arguments it accepts pass again as they are, differing only where it repaired', () => {
    const seen = { repaired: 0, invalid: 0, unchecked: 0 };
    fc.assert(
      fc.property(
        subschema.node,
        fc.dictionary(
          fc.constantFrom('a', 'b', 'c'),
          fc.oneof(json, fc.constantFrom('42', '', '{}', 'true')),
          {
            maxKeys: 3,
          },
        ),
        (schema, args) => {
          const root = { type: 'object', properties: { a: schema, b: schema, c: schema } };
          const checked = validateArguments(root, args);
          if (checked.status !== 'valid') {
            seen[checked.status]++;
            return;
          }
          if (checked.repairs.length > 0) seen.repaired++;
          expect(validateArguments(root, checked.arguments, { repair: false }).status).toBe(
            'valid',
          );
          const reverted = structuredClone(checked.arguments);
          for (const repair of checked.repairs) {
            expect(typeof repair.from).toBe('string');
            const key = repair.path.replace(/^arguments\./, '');
            if (!key.includes('.') && !key.includes('[')) reverted[key] = repair.from;
          }
          if (checked.repairs.every((repair) => /^arguments\.\w+$/.test(repair.path))) {
            expect(reverted).toEqual(args);
          }
        },
      ),
      { numRuns: 300 },
    );
    // Guards the property against testing one path only.
    expect(seen.repaired).toBeGreaterThan(0);
    expect(seen.invalid).toBeGreaterThan(0);
    expect(seen.unchecked).toBeGreaterThan(0);
  });
});
