// Property: however a call reaches a tool (directly, through a single tool_call, in a
// tool_call batch, or by a deferred tool's own name), the approval question and the run
// see the arguments a plain AI SDK call with already-final arguments would. The
// reference is the AI SDK alone: the same tools, called directly, no tool search.
// Runs on ai 7 (also through `search.toolApproval`) and ai 6.
import * as ai from 'ai';
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SeenCall } from './__fixtures__/approval-tools.js';
import {
  answerApprovals,
  approvalRequests,
  createScriptedModel,
  type ScriptedCall,
} from './__fixtures__/scripted-model.js';
import { withToolSearch } from './with-tool-search.js';

const hasToolApproval = 'toolSearch' in ai; // ai 7

type PropertyType = 'number' | 'integer' | 'boolean' | 'string';
type Approval = 'absent' | true | false | 'function';

interface ToolSpec {
  name: string;
  deferred: boolean;
  properties: [string, PropertyType][];
  approval: Approval;
  threshold: number;
}

interface CallSpec {
  tool: number;
  values: unknown[];
  stringify: boolean[];
}

type Surface = 'direct' | 'tool_call' | 'batch' | 'routed';

interface Scenario {
  tools: ToolSpec[];
  surface: Surface;
  calls: CallSpec[];
  viaToolApproval: boolean;
}

interface Log {
  asked: SeenCall[];
  ran: SeenCall[];
}

const PROPERTY_NAMES = ['amount', 'count', 'force', 'note'] as const;

const toolSpec = (index: number, deferred: boolean): fc.Arbitrary<ToolSpec> =>
  fc.record({
    name: fc.constant(`tool_${index}`),
    deferred: fc.constant(deferred),
    properties: fc
      .uniqueArray(fc.constantFrom(...PROPERTY_NAMES), { minLength: 1, maxLength: 4 })
      .chain((names) =>
        fc.tuple(
          ...names.map((name) =>
            fc
              .constantFrom<PropertyType>('number', 'integer', 'boolean', 'string')
              .map((type): [string, PropertyType] => [name, type]),
          ),
        ),
      ),
    approval: fc.constantFrom<Approval>('absent', true, false, 'function'),
    threshold: fc.integer({ min: -50, max: 50 }),
  });

const value = (type: PropertyType): fc.Arbitrary<unknown> =>
  type === 'boolean'
    ? fc.boolean()
    : type === 'string'
      ? fc.constantFrom('a', 'b c', '')
      : type === 'integer'
        ? fc.integer({ min: -100, max: 100 })
        : fc.oneof(fc.integer({ min: -100, max: 100 }), fc.constantFrom(0.5, -2.25, 99.5));

const callOf = (tools: ToolSpec[], candidates: number[]): fc.Arbitrary<CallSpec> =>
  fc.constantFrom(...candidates).chain((index) => {
    const properties = tools[index]!.properties;
    return fc.record({
      tool: fc.constant(index),
      values: fc.tuple(...properties.map(([, type]) => value(type))),
      stringify: fc.tuple(...properties.map(() => fc.boolean())),
    });
  });

const scenario: fc.Arbitrary<Scenario> = fc
  .tuple(fc.boolean(), fc.boolean())
  .chain(([secondDeferred, thirdDeferred]) =>
    fc.tuple(toolSpec(0, true), toolSpec(1, secondDeferred), toolSpec(2, thirdDeferred)),
  )
  .chain((tools) => {
    const deferred = tools.flatMap((spec, index) => (spec.deferred ? [index] : []));
    const visible = tools.flatMap((spec, index) => (spec.deferred ? [] : [index]));
    const surfaces: Surface[] = ['tool_call', 'batch', 'routed'];
    if (visible.length > 0) surfaces.push('direct');
    return fc.constantFrom(...surfaces).chain((surface) => {
      const calls =
        surface === 'batch'
          ? fc.array(callOf(tools, deferred), { minLength: 1, maxLength: 3 })
          : surface === 'direct'
            ? callOf(tools, visible).map((call) => [call])
            : surface === 'tool_call'
              ? callOf(tools, [...deferred, ...visible]).map((call) => [call])
              : callOf(tools, deferred).map((call) => [call]);
      return fc.record({
        tools: fc.constant(tools),
        surface: fc.constant(surface),
        calls,
        viaToolApproval: hasToolApproval ? fc.boolean() : fc.constant(false),
      });
    });
  });

function buildTools(specs: readonly ToolSpec[], log: Log, labelled: boolean): ToolSet {
  const tools: ToolSet = {};
  for (const spec of specs) {
    const properties = Object.fromEntries(spec.properties.map(([name, type]) => [name, { type }]));
    const made = tool({
      description: `Tool ${spec.name}`,
      inputSchema: jsonSchema<Record<string, unknown>>({
        type: 'object',
        properties,
        required: spec.properties.map(([name]) => name),
      } as never),
      execute: async (input: Record<string, unknown>) => {
        log.ran.push({ name: spec.name, input });
        return { ok: true };
      },
    });
    const needsApproval =
      spec.approval === 'function'
        ? (input: Record<string, unknown>) => {
            log.asked.push({ name: spec.name, input });
            return spec.properties.some(([name, type]) =>
              type === 'boolean'
                ? input[name] === true
                : type === 'string'
                  ? false
                  : (input[name] as number) > spec.threshold,
            );
          }
        : spec.approval === 'absent'
          ? undefined
          : spec.approval;
    tools[spec.name] = Object.assign(made, {
      ...(needsApproval !== undefined ? { needsApproval } : {}),
      ...(labelled
        ? {
            metadata: {
              toolSearch: { source: spec.deferred ? 'mcp' : 'core', toolset: 'mcp-fuzz' },
            },
          }
        : {}),
    }) as ToolSet[string];
  }
  return tools;
}

function finalArguments(spec: ToolSpec, call: CallSpec): Record<string, unknown> {
  return Object.fromEntries(spec.properties.map(([name], index) => [name, call.values[index]]));
}

function modelArguments(spec: ToolSpec, call: CallSpec): Record<string, unknown> {
  return Object.fromEntries(
    spec.properties.map(([name, type], index) => {
      const raw = call.values[index];
      // The model writes numbers and booleans as strings; the bridge repairs them.
      const written = call.stringify[index] && type !== 'string' ? String(raw) : raw;
      return [name, written];
    }),
  );
}

interface Observed {
  asked: string[];
  approvalRequested: boolean;
  ran: string[];
  reasked: string[];
}

const key = (seen: SeenCall) => JSON.stringify([seen.name, seen.input]);

async function observe(
  tools: ToolSet,
  calls: readonly ScriptedCall[],
  log: Log,
  setup: Partial<Parameters<typeof generateText>[0]>,
): Promise<Observed> {
  const prompt = 'go';
  const settings = { tools, stopWhen: stepCountIs(3), ...setup } as const;
  const first = await generateText({
    ...settings,
    model: createScriptedModel(calls),
    prompt,
  } as Parameters<typeof generateText>[0]);
  const asked = log.asked.map(key).sort();
  const requested = approvalRequests(first).filter(
    (request) => !(request as { isAutomatic?: boolean }).isAutomatic,
  );
  if (requested.length > 0) {
    await generateText({
      ...settings,
      model: createScriptedModel([]),
      messages: answerApprovals(prompt, first, true),
    } as Parameters<typeof generateText>[0]);
  }
  return {
    asked,
    approvalRequested: requested.length > 0,
    ran: log.ran.map(key).sort(),
    reasked: log.asked.slice(asked.length).map(key),
  };
}

async function check(input: Scenario): Promise<void> {
  const { tools: specs, surface, calls } = input;

  // The reference: the AI SDK alone, each call made directly with its final arguments.
  const referenceLog: Log = { asked: [], ran: [] };
  const reference = await observe(
    buildTools(specs, referenceLog, false),
    calls.map((call) => ({
      toolName: specs[call.tool]!.name,
      input: finalArguments(specs[call.tool]!, call),
    })),
    referenceLog,
    {},
  );

  const log: Log = { asked: [], ran: [] };
  const search = withToolSearch(buildTools(specs, log, true), { config: { enabled: 'on' } });
  const written = calls.map((call) => ({
    name: specs[call.tool]!.name,
    arguments:
      surface === 'direct'
        ? finalArguments(specs[call.tool]!, call)
        : modelArguments(specs[call.tool]!, call),
  }));
  const scripted: ScriptedCall[] =
    surface === 'batch'
      ? [{ toolName: 'tool_call', input: { calls: written } }]
      : surface === 'tool_call'
        ? [{ toolName: 'tool_call', input: written[0] }]
        : [{ toolName: written[0]!.name, input: written[0]!.arguments }];
  const observed = await observe(search.tools, scripted, log, {
    prepareStep: search.prepareStep,
    experimental_repairToolCall: search.repairToolCall,
    ...(input.viaToolApproval ? { toolApproval: search.toolApproval } : {}),
  } as Partial<Parameters<typeof generateText>[0]>);

  expect(observed.asked).toEqual(reference.asked);
  expect(observed.approvalRequested).toBe(reference.approvalRequested);
  expect(observed.ran).toEqual(reference.ran);
  // A question asked again when the approved call runs sees the same arguments.
  for (const again of observed.reasked) expect(reference.asked).toContain(again);
}

describe('withToolSearch: approval and execution see the final arguments', () => {
  it('asks and runs every surface as the AI SDK alone asks and runs the direct call with final arguments', async () => {
    await fc.assert(fc.asyncProperty(scenario, check), { numRuns: 60 });
  });
});
