import type { ToolCall } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';
import { bridgeErrors } from './resolve.js';

const assembly = assembleTools({ tools: sessionTools, config: forcedOn });
const catalogNames = new Set(assembly.catalog.names());
const maxLimit = assembly.config?.maxSearchLimit ?? 20;

/** A value nested `depth` arrays deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

/** Freezes a value and everything in it, so that any change to the input throws. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    stack.push(...Object.values(item));
  }
  return value;
}

/** What a model or a broken client could put in a bridge tool's arguments. */
const hostileValue = fc.oneof(
  fc.jsonValue(),
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(JSON.stringify(value))),
  fc.constantFrom(
    null,
    undefined,
    '',
    '   ',
    'null',
    '[]',
    '{"name":',
    '1e999',
    -0,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '__proto__',
    'constructor',
    'tool_call',
    'tool_search',
    'tool_describe',
  ),
  fc.constantFrom(...catalogNames),
  // Huge strings: a name, a query or a JSON text of a megabyte.
  fc.string({ minLength: 1, maxLength: 8 }).map((text) => text.repeat(1 + (1_000_000 >> 3))),
  fc.constantFrom(...catalogNames).map((name) => `${name} `.repeat(100_000)),
  // Deep nesting, as a value and as a JSON text.
  // (A JSON text of this value is built by some generators: 3,000 levels stringify safely.)
  fc.integer({ min: 1, max: 3_000 }).map(nested),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.jsonValue().map((value) => JSON.parse(`{"__proto__": ${JSON.stringify(value) ?? 'null'}}`)),
);
const argumentKey = fc.constantFrom('query', 'limit', 'name', 'arguments', '__proto__', 'x');
const hostileArguments = fc.oneof(
  hostileValue,
  fc.dictionary(argumentKey, hostileValue, { maxKeys: 4 }),
  fc.dictionary(argumentKey, hostileValue, { maxKeys: 4 }).map((value) => JSON.stringify(value)),
  fc.record({ name: fc.constantFrom(...catalogNames), arguments: hostileValue }),
);
const bridgeCall = fc.record({
  name: fc.constantFrom('tool_search', 'tool_describe', 'tool_call'),
  arguments: hostileArguments,
});

/** A `tool_call` of a deferred tool with every required argument present. */
const wellFormedCall = (() => {
  const tool = assembly.catalog.get(assembly.catalog.names()[0]!)!;
  const required = (tool.inputSchema['required'] as string[] | undefined) ?? [];
  return {
    name: 'tool_call' as const,
    arguments: {
      name: tool.name,
      arguments: Object.fromEntries(required.map((key) => [key, 'x'])),
    },
  };
})();

/** The error texts (`docs/guides/errors.md`) a refusal may start with. */
const ERROR_STARTS = [
  bridgeErrors.queryRequired,
  bridgeErrors.nameRequired,
  "tool_call requires a 'name' argument",
  'tool_call cannot invoke',
  "tool_call 'arguments' is not valid JSON",
  "tool_call 'arguments' must be an object",
  'tool_search failed',
  "'",
];

function expectWellFormed(name: string, answer: unknown): void {
  expect(isRecord(answer)).toBe(true);
  const result = answer as Record<string, unknown>;
  // Data the model sees: it survives JSON unchanged.
  expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  if ('error' in result) {
    expect(typeof result['error']).toBe('string');
    // A refusal echoes the model's input bounded, never a megabyte of it.
    expect(JSON.stringify(result).length).toBeLessThan(8_192);
    expect(ERROR_STARTS.some((start) => (result['error'] as string).startsWith(start))).toBe(true);
    const suggested = result['did_you_mean'];
    if (suggested !== undefined) {
      expect(Array.isArray(suggested) && suggested.length <= 3).toBe(true);
      for (const other of suggested as unknown[])
        expect(catalogNames.has(other as string)).toBe(true);
    }
    return;
  }
  if (name === 'tool_search') {
    expect(typeof result['query']).toBe('string');
    expect((result['query'] as string).length).toBeLessThanOrEqual(501);
    expect(result['total_available']).toBe(assembly.catalog.size);
    const matches = result['matches'] as Record<string, unknown>[];
    expect(Array.isArray(matches)).toBe(true);
    expect(matches.length).toBeLessThanOrEqual(maxLimit);
    for (const match of matches) {
      expect(catalogNames.has(match['name'] as string)).toBe(true);
      expect(typeof match['source_name']).toBe('string');
      expect((match['description'] as string).length).toBeLessThanOrEqual(401);
    }
  } else if (name === 'tool_describe') {
    const tool = assembly.catalog.get(result['name'] as string);
    expect(tool).toBeDefined();
    expect(result['parameters']).toEqual(tool?.inputSchema);
  } else {
    expect(result).toHaveProperty('dispatched');
  }
}

describe('handleBridgeCall with hostile arguments (fuzzed)', () => {
  it('never throws and always answers well-formed data, whatever the arguments of the three bridge tools', async () => {
    let dispatched = 0;
    const dispatch = (call: ToolCall) => {
      dispatched += 1;
      // Only a deferred tool with an object of arguments ever reaches dispatch.
      expect(catalogNames.has(call.name)).toBe(true);
      expect(isRecord(call.arguments)).toBe(true);
      return { dispatched: call.name };
    };
    await fc.assert(
      fc.asyncProperty(bridgeCall, async (raw) => {
        const call = deepFreeze(raw);
        let answer: Promise<unknown> | undefined;
        expect(() => {
          answer = handleBridgeCall(assembly, call as never, dispatch);
        }).not.toThrow();
        expect(answer).toBeDefined();
        expectWellFormed(call.name, await answer);
      }),
      // A well-formed call runs first, so that dispatch is seen whatever the random
      // draws (a drawn call rarely holds every required argument).
      { numRuns: 250, examples: [[wellFormedCall]] },
    );
    expect(dispatched).toBeGreaterThan(0);
  });

  it('answers a whole call that is not an object at all without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue, async (call) => {
        const answer = handleBridgeCall(assembly, deepFreeze(call) as never, () => ({
          dispatched: 'never',
        }));
        if (answer !== undefined) expect(isRecord(await answer)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
