import { describe, expect, it } from 'vitest';
import { ToolSearchError } from './errors.js';
import { validateToolDefinition, validateToolDefinitions } from './tool-definition.js';

describe('validateToolDefinition', () => {
  it('accepts a good definition and drops unknown keys', () => {
    const tool = validateToolDefinition({
      name: 'github_create_issue',
      description: 'Create an issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, $defs: {} },
      source: 'mcp',
      extra: 'dropped',
    });
    expect(tool).toEqual({
      name: 'github_create_issue',
      description: 'Create an issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, $defs: {} },
      source: 'mcp',
    });
  });

  it('names the tool and the field of a bad definition', () => {
    const attempt = () =>
      validateToolDefinition({ name: 'bad_tool', inputSchema: { type: 'string' } });
    expect(attempt).toThrow(/Tool 'bad_tool' is invalid: inputSchema.type/);
    try {
      attempt();
    } catch (error) {
      expect(ToolSearchError.isInstance(error)).toBe(true);
      expect((error as ToolSearchError).code).toBe('invalid_tool_definition');
    }
    expect(() => validateToolDefinition({ name: 'x', inputSchema: {}, source: 'web' })).toThrow(
      /source/,
    );
    expect(() => validateToolDefinition({ name: 'has space', inputSchema: {} })).toThrow(/name/);
    expect(() => validateToolDefinition(null)).toThrow(/Tool '<unnamed>' is invalid/);
    expect(() => validateToolDefinition({ name: 'y', inputSchema: { required: 'q' } })).toThrow(
      /inputSchema.required/,
    );
  });

  it('keeps a valid origin and rejects one with an empty or missing server or name', () => {
    const origin = { server: 'memory', name: 'delete_entities' };
    expect(validateToolDefinition({ name: 'x', inputSchema: {}, origin }).origin).toEqual(origin);
    expect(() =>
      validateToolDefinition({ name: 'x', inputSchema: {}, origin: { server: '', name: 'y' } }),
    ).toThrow(/origin.server: must not be empty/);
    expect(() =>
      validateToolDefinition({ name: 'x', inputSchema: {}, origin: { server: 'memory' } }),
    ).toThrow(/origin.name/);
    expect(() => validateToolDefinition({ name: 'x', inputSchema: {}, origin: 'memory' })).toThrow(
      /origin/,
    );
  });
});

describe('validateToolDefinitions', () => {
  it('keeps the good definitions and reports each bad one and each repeated name', () => {
    const { tools, errors } = validateToolDefinitions([
      { name: 'a', inputSchema: {} },
      { name: 'b' },
      42,
      { name: 'a', inputSchema: {} },
      { name: 'c', inputSchema: { type: 'object' } },
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['a', 'c']);
    expect(errors.map((error) => error.code)).toEqual([
      'invalid_tool_definition',
      'invalid_tool_definition',
      'duplicate_tool_name',
    ]);
    expect(errors[0]!.message).toContain("Tool 'b' is invalid: inputSchema");
  });

  it('names each rejected tool in data.tool, whatever characters its name holds', () => {
    const { errors } = validateToolDefinitions([
      { name: "it's broken", inputSchema: {} },
      { inputSchema: {} },
      { name: 'a', inputSchema: {} },
      { name: 'a', inputSchema: {} },
    ]);
    expect(errors.map((error) => error.data?.tool)).toEqual(["it's broken", undefined, 'a']);
  });
});

describe('ToolSearchError', () => {
  it('is recognised by isInstance across copies through its Symbol.for marker', () => {
    const error = new ToolSearchError('invalid_config', 'bad', { cause: new Error('root') });
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect(ToolSearchError.isInstance(new Error('x'))).toBe(false);
    expect(ToolSearchError.isInstance(null)).toBe(false);
    const foreign = Object.assign(new Error('other copy'), {
      [Symbol.for('@tool-search/core.ToolSearchError')]: true,
    });
    expect(ToolSearchError.isInstance(foreign)).toBe(true);
    expect((error.cause as Error).message).toBe('root');
  });

  it('wraps unknown throws with from() and keeps a ToolSearchError as it is', () => {
    const wrapped = ToolSearchError.from('plain string', 'ranker_failed', 'Server x failed');
    expect(wrapped.message).toBe('Server x failed: plain string');
    expect(wrapped.code).toBe('ranker_failed');
    expect(ToolSearchError.from(wrapped, 'invalid_argument', 'y')).toBe(wrapped);
  });
});
