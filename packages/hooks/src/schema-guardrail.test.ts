import type { JsonSchemaObject, ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createSchemaGuardrail } from './schema-guardrail.js';
import type { DispatchContext, Guardrail, GuardrailVerdict } from './types.js';

const ctx: DispatchContext = { via: 'direct', signal: new AbortController().signal };

const createIssue: ToolDefinition = {
  name: 'github_create_issue',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      owner: { type: 'string' },
      title: { type: 'string', minLength: 1 },
      labels: { type: 'array', items: { type: 'string' } },
      state: { enum: ['open', 'closed'] },
      assignee: { type: ['string', 'null'] },
      email: { type: 'string', format: 'email' },
      'x-weird key': { type: 'number' },
    },
    required: ['owner', 'title'],
    additionalProperties: false,
    'x-vendor-extension': { anything: true },
  },
};

function toolWith(inputSchema: JsonSchemaObject, name = 't'): ToolDefinition {
  return { name, inputSchema };
}

function checkWith(tool: ToolDefinition, args: Record<string, unknown>): GuardrailVerdict {
  const guardrail = createSchemaGuardrail((name) => (name === tool.name ? tool : undefined));
  return guardrail.check({ name: tool.name, arguments: args }, ctx) as GuardrailVerdict;
}

function reasonOf(verdict: unknown): string {
  return (verdict as { reason?: string }).reason ?? '';
}

describe('createSchemaGuardrail', () => {
  it('allows arguments that match the schema', () => {
    expect(
      checkWith(createIssue, {
        owner: 'octo',
        title: 'Bug',
        labels: ['a'],
        state: 'open',
        assignee: null,
      }),
    ).toEqual({ allow: true });
  });

  it('denies with a readable list of problems, each with its path and expectation', () => {
    const verdict = checkWith(createIssue, {
      title: '',
      labels: ['ok', 3],
      state: 'merged',
      assignee: 7,
      email: 'not-an-email',
      extra: true,
      'x-weird key': 'x',
    });
    expect(verdict.allow).toBe(false);
    const reason = reasonOf(verdict);
    expect(reason).toMatch(/^The arguments of 'github_create_issue' do not match its schema: /);
    expect(reason).toContain('arguments.owner: is required');
    expect(reason).toContain('arguments.extra: is not an allowed property');
    expect(reason).toContain('arguments.title: must NOT have fewer than 1 characters');
    expect(reason).toContain('arguments.labels[1]: must be string');
    expect(reason).toContain('arguments.state: must be one of ["open","closed"]');
    expect(reason).toContain('arguments.assignee: must be string or null');
    expect(reason).toContain('arguments.email: must be a valid email');
    expect(reason).toContain('arguments["x-weird key"]: must be number');
    expect(reason).toMatch(/Fix them and call again\.$/);
  });

  it('lists at most maxProblems problems and says how many more there are', () => {
    const guardrail = createSchemaGuardrail(() => createIssue, { maxProblems: 2 });
    const verdict = guardrail.check(
      { name: 'github_create_issue', arguments: { a: 1, b: 2, c: 3, d: 4 } },
      ctx,
    );
    expect(reasonOf(verdict)).toMatch(/\(and \d+ more\)\. Fix them/);
    expect(reasonOf(verdict).split(';')).toHaveLength(2);
  });

  it('follows draft-07 definitions and $ref', () => {
    const tool = toolWith({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { point: { $ref: '#/definitions/point' } },
      definitions: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } },
    });
    expect(checkWith(tool, { point: [1, 2] })).toEqual({ allow: true });
    expect(reasonOf(checkWith(tool, { point: [1, 'x'] }))).toContain(
      'arguments.point[1]: must be number',
    );
  });

  it('reads 2020-12 schemas as 2020-12 (prefixItems, $defs)', () => {
    const tool = toolWith({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { $ref: '#/$defs/pair' } },
      $defs: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } },
    });
    expect(checkWith(tool, { pair: ['a', 1] })).toEqual({ allow: true });
    expect(reasonOf(checkWith(tool, { pair: ['a', 'b'] }))).toContain(
      'arguments.pair[1]: must be integer',
    );
  });

  it('reads 2019-09 schemas as 2019-09', () => {
    const tool = toolWith({
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { a: { type: 'string' } },
      unevaluatedProperties: false,
    });
    expect(checkWith(tool, { a: 'x' })).toEqual({ allow: true });
    expect(reasonOf(checkWith(tool, { b: 1 }))).toContain(
      'arguments.b: is not an allowed property',
    );
  });

  it('reads a schema without $schema as 2020-12, and as draft-07 when only that compiles', () => {
    const modern = toolWith({
      type: 'object',
      properties: { p: { prefixItems: [{ type: 'string' }] } },
    });
    expect(reasonOf(checkWith(modern, { p: [1] }))).toContain('arguments.p[0]: must be string');
    const legacy = toolWith({ type: 'object', properties: { p: { items: [{ type: 'string' }] } } });
    expect(reasonOf(checkWith(legacy, { p: [1] }))).toContain('arguments.p[0]: must be string');
  });

  it('reads an older declared draft as draft-07', () => {
    const tool = toolWith({
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(checkWith(tool, { a: 'x' })).toEqual({ allow: true });
    expect(checkWith(tool, { a: 1 }).allow).toBe(false);
  });

  it('ignores unknown keywords and unknown formats', () => {
    const tool = toolWith({
      type: 'object',
      properties: { a: { type: 'string', format: 'vendor-id', 'x-ui': { widget: 'text' } } },
      'x-custom': true,
    });
    expect(checkWith(tool, { a: 'anything' })).toEqual({ allow: true });
  });

  it('denies, clearly, when a schema cannot be compiled', () => {
    const tool = toolWith({ type: 'object', properties: { a: { type: 'nonsense' } } });
    const verdict = checkWith(tool, { a: 1 });
    expect(verdict.allow).toBe(false);
    expect(reasonOf(verdict)).toMatch(
      /^The input schema of 't' could not be compiled \(.+\), so its arguments cannot be checked and the call is denied\.$/,
    );
    const badRef = toolWith({ type: 'object', properties: { a: { $ref: '#/nowhere' } } });
    expect(checkWith(badRef, {}).allow).toBe(false);
  });

  it('compiles each schema once', () => {
    let reads = 0;
    const schema = new Proxy(
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a'],
      } as JsonSchemaObject,
      {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const tool = toolWith(schema);
    const guardrail = createSchemaGuardrail(() => tool);
    guardrail.check({ name: 't', arguments: { a: 'x' } }, ctx);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) guardrail.check({ name: 't', arguments: { a: String(i) } }, ctx);
    expect(reads).toBe(afterFirst);
  });

  it('keeps tools that share an $id apart', () => {
    const a = toolWith(
      {
        $id: 'https://example.com/args.json',
        type: 'object',
        properties: { v: { type: 'string' } },
      },
      'a',
    );
    const b = toolWith(
      {
        $id: 'https://example.com/args.json',
        type: 'object',
        properties: { v: { type: 'number' } },
      },
      'b',
    );
    const guardrail = createSchemaGuardrail((name) => (name === 'a' ? a : b));
    expect(guardrail.check({ name: 'a', arguments: { v: 'x' } }, ctx)).toEqual({ allow: true });
    expect(guardrail.check({ name: 'b', arguments: { v: 1 } }, ctx)).toEqual({ allow: true });
    expect(guardrail.check({ name: 'b', arguments: { v: 'x' } }, ctx)).toMatchObject({
      allow: false,
    });
  });

  it('denies a tool with no known schema, unless told to allow it', () => {
    const strict = createSchemaGuardrail(() => undefined);
    expect(strict.check({ name: 'ghost', arguments: {} }, ctx)).toEqual({
      allow: false,
      reason:
        "No schema is known for the tool 'ghost', so its arguments cannot be checked and the call is denied.",
    });
    const lenient = createSchemaGuardrail(() => undefined, { unknownTools: 'allow' });
    expect(lenient.check({ name: 'ghost', arguments: {} }, ctx)).toEqual({ allow: true });
  });

  it('uses ctx.tool when there is no lookup or it does not know the tool', () => {
    const withoutLookup: Guardrail = createSchemaGuardrail();
    const context = { ...ctx, tool: createIssue };
    expect(
      withoutLookup.check({ name: 'github_create_issue', arguments: {} }, context),
    ).toMatchObject({
      allow: false,
      reason: expect.stringContaining('arguments.owner: is required'),
    });
    expect(withoutLookup.check({ name: 'other', arguments: {} }, context)).toMatchObject({
      allow: false,
      reason: expect.stringContaining('No schema is known'),
    });
  });

  it('judges the arguments as sent: it repairs nothing, since it cannot change them', () => {
    const tool = toolWith({ type: 'object', properties: { count: { type: 'integer' } } });
    expect(reasonOf(checkWith(tool, { count: '42' }))).toContain(
      'arguments.count: must be integer',
    );
    expect(checkWith(tool, { count: 42 })).toEqual({ allow: true });
  });

  it('lets null through where the schema says nullable: true', () => {
    const tool = toolWith({
      type: 'object',
      properties: { level: { type: 'string', enum: ['a', 'b'], nullable: true } },
    });
    expect(checkWith(tool, { level: null })).toEqual({ allow: true });
    expect(checkWith(tool, { level: 'c' }).allow).toBe(false);
  });

  it('has a name and rejects a bad maxProblems', () => {
    expect(createSchemaGuardrail().name).toBe('schema');
    expect(createSchemaGuardrail(undefined, { name: 'args' }).name).toBe('args');
    expect(() => createSchemaGuardrail(undefined, { maxProblems: 0 })).toThrow(/maxProblems/);
  });
});

describe('createSchemaGuardrail patterns', () => {
  const guardrailFor = (tool: ToolDefinition, patterns?: 'linear' | 'native') =>
    createSchemaGuardrail((name) => (name === tool.name ? tool : undefined), { patterns });
  const check = (guardrail: Guardrail, tool: ToolDefinition, args: Record<string, unknown>) =>
    guardrail.check({ name: tool.name, arguments: args }, ctx) as GuardrailVerdict;

  it('runs a catastrophic pattern in linear time (RegExp would take ages on this input)', () => {
    const tool = toolWith(
      { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } },
      'hostile',
    );
    const guardrail = guardrailFor(tool);
    const verdict = check(guardrail, tool, { name: `${'a'.repeat(50_000)}!` });
    expect(verdict.allow).toBe(false);
    expect(reasonOf(verdict)).toContain('arguments.name: must match pattern "^(a+)+$"');
    expect(check(guardrail, tool, { name: 'aaaa' })).toEqual({ allow: true });
  });

  it('keeps each pattern its own, in properties and patternProperties', () => {
    const starts = toolWith(
      { type: 'object', properties: { id: { type: 'string', pattern: '^b' } } },
      'starts',
    );
    const letters = toolWith(
      {
        type: 'object',
        properties: { word: { type: 'string', pattern: '^\\p{L}+$' } },
        patternProperties: { '^x-[a-z]+$': { type: 'number' } },
      },
      'letters',
    );
    const byName = new Map([starts, letters].map((tool) => [tool.name, tool]));
    const guardrail = createSchemaGuardrail((name) => byName.get(name));
    expect(check(guardrail, letters, { word: 'héllo', 'x-size': 3 })).toEqual({ allow: true });
    expect(check(guardrail, letters, { word: 'h3llo' }).allow).toBe(false);
    expect(check(guardrail, letters, { 'x-size': 'big' }).allow).toBe(false);
    expect(check(guardrail, starts, { id: 'bx' })).toEqual({ allow: true });
    expect(check(guardrail, starts, { id: 'xb' }).allow).toBe(false);
  });

  it("denies a call of a tool whose pattern needs lookaround, naming that keyword, and checks it with patterns: 'native'", () => {
    const tool = toolWith(
      { type: 'object', properties: { path: { type: 'string', pattern: '^(?!/etc).*$' } } },
      'lookahead',
    );
    const verdict = check(guardrailFor(tool), tool, { path: '/tmp/x' });
    expect(verdict.allow).toBe(false);
    expect(reasonOf(verdict)).toContain("'pattern' at /properties/path/pattern");
    expect(reasonOf(verdict)).toContain("patterns: 'native'");
    const native = guardrailFor(tool, 'native');
    expect(check(native, tool, { path: '/tmp/x' })).toEqual({ allow: true });
    expect(check(native, tool, { path: '/etc/passwd' }).allow).toBe(false);
  });

  it("with skippedKeywords: 'allow', leaves only that pattern unchecked and still checks the rest", () => {
    const tool = toolWith(
      {
        type: 'object',
        properties: { path: { type: 'string', pattern: '^(?!/etc)' }, lines: { type: 'integer' } },
      },
      'lookahead',
    );
    const guardrail = createSchemaGuardrail(() => tool, { skippedKeywords: 'allow' });
    expect(check(guardrail, tool, { path: '/tmp/x', lines: 3 })).toEqual({ allow: true });
    const verdict = check(guardrail, tool, { path: '/tmp/x', lines: 'x' });
    expect(verdict.allow).toBe(false);
    expect(reasonOf(verdict)).toContain('arguments.lines: must be integer');
  });

  it('returns from a recursive anyOf that doubles per level and denies, naming the keyword that overran', () => {
    let tree: unknown = 0;
    for (let level = 0; level < 40; level++) tree = [tree];
    const tool = toolWith(
      {
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
      },
      'tree_walk',
    );
    const reported: unknown[] = [];
    const guardrail = createSchemaGuardrail(() => tool, {
      skippedKeywords: 'allow',
      onSkippedKeyword: (skipped) => reported.push(skipped),
    });
    const verdict = check(guardrail, tool, { tree });
    expect(verdict.allow).toBe(false);
    expect(reasonOf(verdict)).toContain("'anyOf' at /$defs/node/anyOf");
    expect(reported).toEqual([
      expect.objectContaining({ tool: 'tree_walk', keyword: 'anyOf', cause: 'budget' }),
    ]);
    expect(check(guardrail, tool, { tree: [[0]] }).allow).toBe(false);
    expect(check(guardrail, tool, { tree: [[]] })).toEqual({ allow: true });
  });

  it('refuses arguments over maxArgumentBytes before it checks them against the schema', () => {
    const tool = toolWith({
      type: 'object',
      properties: { list: { type: 'array', uniqueItems: true } },
    });
    const guardrail = createSchemaGuardrail(() => tool, { maxArgumentBytes: 1_000 });
    const verdict = check(guardrail, tool, {
      list: Array.from({ length: 500 }, (_, index) => index),
    });
    expect(verdict.allow).toBe(false);
    expect(reasonOf(verdict)).toContain('at most 1000 are allowed');
    expect(() => createSchemaGuardrail(undefined, { maxArgumentBytes: 0 })).toThrow(
      /maxArgumentBytes must be a positive number/,
    );
  });

  it('refuses an unknown pattern engine', () => {
    expect(() =>
      createSchemaGuardrail(undefined, { patterns: 'fast' as unknown as 'linear' }),
    ).toThrow(/patterns must be 'linear' or 'native'/);
  });
});
