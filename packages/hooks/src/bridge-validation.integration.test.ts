// The bridge checks a deferred call against its tool's schema before dispatch, with the
// validator the schema guardrail uses. Through the real dispatcher: a call the validator
// accepts reaches the tool exactly once, with exactly the arguments it accepted (repaired
// where that was unambiguous), and passes the schema guardrail; a call it refuses never
// reaches a guardrail, a hook or the tool, and the guardrail would have denied it too.
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import type { JsonSchemaObject, ToolCall, ToolDefinition } from '@tool-search/core';
import { createBm25Ranker } from '@tool-search/core';
import { type ArgumentCheck, validateArguments } from '@tool-search/core/validate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from './dispatcher.js';
import { createSchemaGuardrail } from './schema-guardrail.js';
import type { DispatchResult } from './types.js';

const ranker = createBm25Ranker({ preset: 'spec' });

const PROPERTY_SCHEMAS = {
  count: { type: 'integer', minimum: 0 },
  ratio: { type: 'number' },
  flag: { type: 'boolean' },
  filters: { type: 'object', properties: { tag: { type: 'string' } } },
  options: {
    type: 'object',
    properties: { limit: { type: 'integer' }, verbose: { type: 'boolean' } },
    required: ['limit'],
  },
  priority: { type: 'string', enum: ['low', 'high'] },
  assignee: { type: 'string', nullable: true },
} as const;
type Key = keyof typeof PROPERTY_SCHEMAS;
const KEYS = Object.keys(PROPERTY_SCHEMAS) as Key[];

// Strings a model sends for numbers, booleans and objects, beside real values.
const scalar = fc.oneof(
  fc.constantFrom('42', '-3', '0', '1.5', '007', 'true', 'false', '', '{}', ' { } ', 'low'),
  fc.constantFrom('high', 'urgent', 'x'),
  fc.integer({ min: -5, max: 50 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
);
const value = fc.oneof(
  { arbitrary: scalar, weight: 4 },
  fc.dictionary(fc.constantFrom('tag', 'limit', 'verbose', 'other'), scalar, { maxKeys: 3 }),
);

const schemaArbitrary = fc.record({
  properties: fc.subarray(KEYS, { minLength: 1 }),
  requiredCount: fc.nat({ max: 2 }),
  closed: fc.boolean(),
});

const scenarioArbitrary = schemaArbitrary.chain((shape) =>
  fc.record({
    shape: fc.constant(shape),
    calls: fc.array(
      fc.record({
        values: fc.dictionary(fc.constantFrom(...shape.properties, 'extra'), value, {
          maxKeys: 4,
        }),
        asJson: fc.boolean(),
        direct: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
);

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

function toolOf(shape: Scenario['shape']): ToolDefinition {
  const inputSchema: JsonSchemaObject = {
    type: 'object',
    properties: Object.fromEntries(shape.properties.map((key) => [key, PROPERTY_SCHEMAS[key]])),
    required: shape.properties.slice(0, shape.requiredCount),
    ...(shape.closed ? { additionalProperties: false } : {}),
  };
  const tool: ToolDefinition = {
    name: 'tracker_update_ticket',
    description: 'Update a ticket in the tracker',
    inputSchema,
    source: 'mcp',
    toolset: 'mcp-tracker',
  };
  return tool;
}

/** A dispatcher with the schema guardrail and a hook, recording every step. */
function world(tool: ToolDefinition) {
  const steps: { step: string; call: ToolCall }[] = [];
  const dispatch = createDispatcher({
    execute: (call) => {
      steps.push({ step: 'execute', call: structuredClone(call) });
      return { ran: call.name };
    },
    guardrails: [
      {
        name: 'recorder',
        check: (call) => {
          steps.push({ step: 'guardrail', call: structuredClone(call) });
          return { allow: true };
        },
      },
      createSchemaGuardrail((name) => (name === tool.name ? tool : undefined)),
    ],
    hooks: [
      {
        name: 'recorder',
        beforeCall: (call) => void steps.push({ step: 'beforeCall', call: structuredClone(call) }),
      },
    ],
    resolveTool: (name) => (name === tool.name ? tool : undefined),
  });
  return { steps, dispatch };
}

// What a repair may do, written out independently of the validator: a string becomes
// the number it spells, the boolean it spells, or an empty object.
function isAllowedRepair(from: unknown, to: unknown): boolean {
  if (typeof from !== 'string') return false;
  const text = from.trim();
  if (typeof to === 'number') return String(to) === text || Number(text) === to;
  if (typeof to === 'boolean') return String(to) === text;
  return (
    typeof to === 'object' &&
    to !== null &&
    Object.keys(to).length === 0 &&
    (text === '' || JSON.stringify(JSON.parse(text)) === '{}')
  );
}

function valueAt(root: unknown, path: string): unknown {
  const keys = path
    .replace(/^arguments\.?/, '')
    .split('.')
    .filter(Boolean);
  return keys.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);
}

describe('the bridge checks deferred calls before the dispatcher', () => {
  it('dispatches an accepted call once with exactly its repaired arguments, and never a refused one', async () => {
    const seen = { valid: 0, repaired: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const tool = toolOf(scenario.shape);
        const assembly = assembleTools({ tools: [tool], config: { enabled: 'on' }, ranker });
        const bridged = world(tool);
        for (const call of scenario.calls) {
          const args = call.values as Record<string, unknown>;
          const sent = call.asJson ? JSON.stringify(args) : structuredClone(args);
          const checked: ArgumentCheck = validateArguments(tool.inputSchema, args);
          const before = bridged.steps.length;
          const answer = await handleBridgeCall(
            assembly,
            call.direct
              ? { name: tool.name, arguments: sent }
              : { name: 'tool_call', arguments: { name: tool.name, arguments: sent } },
            bridged.dispatch,
          );
          const steps = bridged.steps.slice(before);
          if (checked.status === 'valid') {
            seen[checked.repairs.length > 0 ? 'repaired' : 'valid']++;
            // Once through every step, each seeing exactly the accepted arguments; the
            // schema guardrail lets them through.
            expect(steps.map((entry) => entry.step)).toEqual([
              'guardrail',
              'beforeCall',
              'execute',
            ]);
            for (const entry of steps) {
              expect(entry.call).toEqual({ name: tool.name, arguments: checked.arguments });
            }
            expect((answer as DispatchResult).status).toBe('ok');
            // Every difference from what was sent is an allowed repair.
            for (const repair of checked.repairs) {
              expect(valueAt(args, repair.path)).toEqual(repair.from);
              expect(valueAt(checked.arguments, repair.path)).toEqual(repair.to);
              expect(isAllowedRepair(repair.from, repair.to)).toBe(true);
            }
          } else {
            expect(checked.status).toBe('invalid');
            seen.invalid++;
            expect(steps).toEqual([]);
            expect(answer).toMatchObject({
              error: expect.stringMatching(/^'tracker_update_ticket' was not invoked: /),
              violations: checked.status === 'invalid' ? checked.violations : [],
            });
            // The guardrail, on the same validator, denies the same arguments sent directly.
            const direct = world(tool);
            const denied = await direct.dispatch({ name: tool.name, arguments: args });
            expect(denied).toMatchObject({
              status: 'denied',
              by: { kind: 'guardrail', name: 'schema' },
            });
            expect(direct.steps.map((entry) => entry.step)).toEqual(['guardrail']);
          }
        }
      }),
      { numRuns: 300 },
    );
    // Guards the property against testing one path only.
    expect(seen.valid).toBeGreaterThan(0);
    expect(seen.repaired).toBeGreaterThan(0);
    expect(seen.invalid).toBeGreaterThan(0);
  }, 120_000);
});
