import { describe, expect, it } from 'vitest';
import { toStrictOpenAITool } from './openai.js';
import { restoreStrictArguments, toStrictJsonSchema } from './strict-schema.js';
import { strictProblems } from './testing/stand-in-server.js';

const schema = {
  type: 'object',
  properties: {
    repo: { type: 'string' },
    state: { type: 'string', enum: ['open', 'closed'] },
    labels: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    filter: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    options: { type: 'object', properties: { draft: { type: 'boolean' } }, required: [] },
  },
  required: ['repo'],
};

describe('toStrictJsonSchema', () => {
  it('makes every property required, closes every object and makes optional properties nullable', () => {
    const strict = toStrictJsonSchema(schema);
    expect(strict).toEqual({
      type: 'object',
      properties: {
        repo: { type: 'string' },
        state: { type: ['string', 'null'], enum: ['open', 'closed', null] },
        labels: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { name: { type: ['string', 'null'] } },
            required: ['name'],
            additionalProperties: false,
          },
        },
        filter: { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] },
        options: {
          type: ['object', 'null'],
          properties: { draft: { type: ['boolean', 'null'] } },
          required: ['draft'],
          additionalProperties: false,
        },
      },
      required: ['repo', 'state', 'labels', 'filter', 'options'],
      additionalProperties: false,
    });
    expect(strictProblems(strict)).toEqual([]);
    expect(strictProblems(schema)).not.toEqual([]);
    expect(schema.required).toEqual(['repo']);
  });

  it('gives an empty object schema the closed form strict mode needs', () => {
    expect(toStrictJsonSchema({})).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });
});

describe('restoreStrictArguments', () => {
  it('drops the nulls the model sent for optional properties, in nested objects too', () => {
    expect(
      restoreStrictArguments(schema, {
        repo: 'acme/app',
        state: null,
        labels: null,
        filter: 'x',
        options: { draft: null },
      }),
    ).toEqual({ repo: 'acme/app', filter: 'x', options: {} });
  });

  it('never lets a "__proto__" key set the prototype: it stays an own key', () => {
    const args = JSON.parse('{"repo":"acme/app","__proto__":{"force":true}}') as unknown;
    const restored = restoreStrictArguments(schema, args) as Record<string, unknown>;
    expect(restored['force']).toBeUndefined();
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
    expect(Object.hasOwn(restored, '__proto__')).toBe(true);
    expect(Object.keys(restored)).toEqual(['repo', '__proto__']);
  });

  it('keeps a null the tool itself accepts for an optional property', () => {
    const nullable = {
      type: 'object',
      properties: {
        assignee: { type: ['string', 'null'] },
        milestone: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        label: { type: 'string', nullable: true },
        note: { type: 'string' },
      },
    };
    expect(
      restoreStrictArguments(nullable, {
        assignee: null,
        milestone: null,
        label: null,
        note: null,
      }),
    ).toEqual({ assignee: null, milestone: null, label: null });
  });

  it('keeps a null the tool asked for as required, and anything that is not an object', () => {
    expect(restoreStrictArguments(schema, { repo: null })).toEqual({ repo: null });
    expect(restoreStrictArguments(schema, 'text')).toBe('text');
  });
});

describe('toStrictOpenAITool', () => {
  it('gives a strict Chat Completions tool', () => {
    const tool = toStrictOpenAITool({ name: 'list', description: 'List', inputSchema: schema });
    expect(tool.function.strict).toBe(true);
    expect(tool.function.name).toBe('list');
    expect(strictProblems(tool.function.parameters)).toEqual([]);
  });
});
