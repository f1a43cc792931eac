// The key proof of the package: a call the model makes through `tool_call` meets
// exactly the policy of the same call made directly. For random deferred tools,
// arguments, policies and approval answers, both routes must produce the same
// sequence of guardrail, hook, approval and execute invocations, each seeing the real
// tool name and arguments, and the same result. The bridge checks a deferred call
// against its schema first: a call it refuses never reaches the dispatcher, and one it
// accepts meets the policy of the direct call with the arguments it checked (repaired).
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import type { JsonSchemaObject, ToolCall, ToolDefinition } from '@tool-search/core';
import { createBm25Ranker } from '@tool-search/core';
import { validateArguments } from '@tool-search/core/validate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createArgumentSizeGuardrail } from './argument-size-guardrail.js';
import { createCallbackApproval } from './callback-approval.js';
import { createDispatcher } from './dispatcher.js';
import { type ApprovalRule, createPolicyApproval } from './policy-approval.js';
import { createSchemaGuardrail } from './schema-guardrail.js';
import {
  createToolPolicyGuardrail,
  type ToolPolicyGuardrailOptions,
} from './tool-policy-guardrail.js';
import type {
  ApprovalAdapter,
  ApprovalDecision,
  DispatchContext,
  DispatchResult,
  Guardrail,
  ToolCallHook,
} from './types.js';

const ranker = createBm25Ranker({ preset: 'spec' });

const coreTools: ToolDefinition[] = [
  {
    name: 'bash',
    description: 'Run a shell command',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    },
    source: 'core',
  },
];

const PROPERTIES = {
  title: { type: 'string' },
  count: { type: 'integer', minimum: 0 },
  labels: { type: 'array', items: { type: 'string' } },
  state: { enum: ['open', 'closed'] },
} as const;
type Key = keyof typeof PROPERTIES;
const KEYS = Object.keys(PROPERTIES) as Key[];

// Values that sometimes fit a property's schema and sometimes do not, and that
// survive a JSON round trip (the bridge may receive arguments as a JSON string).
const argumentValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  { arbitrary: fc.constantFrom('open', 'closed', 'forbidden', 'boom'), weight: 3 },
  fc.integer({ min: -5, max: 50 }),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 3 }),
  fc.boolean(),
  fc.constant(null),
);

const toolArbitrary = fc.record({
  server: fc.constantFrom('github', 'slack', 'fs'),
  verb: fc.constantFrom('get', 'create', 'delete', 'list'),
  source: fc.constantFrom('mcp' as const, 'plugin' as const),
  properties: fc.subarray(KEYS),
  requiredCount: fc.nat({ max: 2 }),
  closed: fc.boolean(),
  readOnlyHint: fc.option(fc.boolean(), { nil: undefined }),
  destructiveHint: fc.option(fc.boolean(), { nil: undefined }),
  draft: fc.constantFrom(
    undefined,
    'http://json-schema.org/draft-07/schema#',
    'https://json-schema.org/draft/2020-12/schema',
  ),
});

type ToolSpec = typeof toolArbitrary extends fc.Arbitrary<infer T> ? T : never;

// Equal schemas share one object, as they would across a session's turns, so that
// the schema guardrail compiles each once for the whole property run.
const schemas = new Map<string, JsonSchemaObject>();
function shared(schema: JsonSchemaObject): JsonSchemaObject {
  const key = JSON.stringify(schema);
  const known = schemas.get(key);
  if (known) return known;
  schemas.set(key, schema);
  return schema;
}

function buildTools(specs: readonly ToolSpec[]): ToolDefinition[] {
  const seen = new Set<string>();
  const tools: ToolDefinition[] = [];
  specs.forEach((spec, index) => {
    const name = `${spec.server}_${spec.verb}_thing${index}`;
    if (seen.has(name)) return;
    seen.add(name);
    const annotations: Record<string, boolean> = {};
    if (spec.readOnlyHint !== undefined) annotations.readOnlyHint = spec.readOnlyHint;
    if (spec.destructiveHint !== undefined) annotations.destructiveHint = spec.destructiveHint;
    tools.push({
      name,
      description: `${spec.verb} a thing on ${spec.server}`,
      inputSchema: shared({
        ...(spec.draft ? { $schema: spec.draft } : {}),
        type: 'object',
        properties: Object.fromEntries(spec.properties.map((key) => [key, PROPERTIES[key]])),
        required: spec.properties.slice(0, spec.requiredCount),
        ...(spec.closed ? { additionalProperties: false } : {}),
      }),
      source: spec.source,
      toolset: `${spec.source}-${spec.server}`,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    });
  });
  return tools;
}

const patternArbitrary = fc.constantFrom(
  'github_*',
  'slack_*',
  '*_delete_*',
  '*_get_*',
  'fs_list_thing?',
  '*',
  'nothing_matches',
);
const toolsetPatternArbitrary = fc.constantFrom(
  'mcp-*',
  'plugin-*',
  'mcp-github',
  '*-slack',
  'plugin-fs',
);
const patternsArbitrary = fc.record(
  {
    tools: fc.array(patternArbitrary, { maxLength: 2 }),
    toolsets: fc.array(toolsetPatternArbitrary, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const policyArbitrary: fc.Arbitrary<ToolPolicyGuardrailOptions> = fc.record({
  allow: fc.option(patternsArbitrary, { nil: undefined, freq: 2 }),
  deny: fc.option(patternsArbitrary, { nil: undefined, freq: 2 }),
});

const ruleArbitrary: fc.Arbitrary<ApprovalRule | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant({ annotations: { destructiveHint: true } }),
  fc.constant({ annotations: { readOnlyHint: true } }),
  fc.record({ tools: fc.array(patternArbitrary, { maxLength: 2 }) }),
  fc.record({ toolsets: fc.array(toolsetPatternArbitrary, { maxLength: 2 }) }),
);

const answerArbitrary = fc.constantFrom<ApprovalDecision | 'throw'>(
  'allow-once',
  'allow-session',
  'deny',
  'throw',
);

const scenarioArbitrary = fc
  .array(toolArbitrary, { minLength: 1, maxLength: 5 })
  .map(buildTools)
  .chain((tools) =>
    fc.record({
      tools: fc.constant(tools),
      policy: policyArbitrary,
      maxBytes: fc.option(fc.integer({ min: 10, max: 200 }), { nil: undefined }),
      require: ruleArbitrary,
      autoApprove: ruleArbitrary,
      otherwise: fc.constantFrom<'ask' | 'allow' | 'deny'>('ask', 'allow', 'deny'),
      answers: fc.array(answerArbitrary, { minLength: 3, maxLength: 3 }),
      calls: fc.array(
        fc.record({
          tool: fc.constantFrom(...tools),
          values: fc.dictionary(fc.constantFrom(...KEYS, 'extra'), argumentValue, { maxKeys: 4 }),
          sessionId: fc.constantFrom(undefined, 's1', 's2'),
          asJson: fc.boolean(),
          id: fc.option(fc.string({ minLength: 1, maxLength: 6 }), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  );

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

interface Invocation {
  step: string;
  name: string;
  call: { name: string; arguments: Record<string, unknown> };
  via: string | undefined;
  sessionId: string | undefined;
  toolName: string | undefined;
}

/** One world: a dispatcher built from the scenario, recording every invocation. */
function world(scenario: Scenario) {
  const log: Invocation[] = [];
  const record = (step: string, name: string, call: ToolCall, ctx: DispatchContext) => {
    log.push({
      step,
      name,
      call: structuredClone({ name: call.name, arguments: call.arguments }),
      via: ctx.via,
      sessionId: ctx.sessionId,
      toolName: ctx.tool?.name,
    });
  };
  const byName = new Map(scenario.tools.map((tool) => [tool.name, tool]));
  const recorded = (guardrail: Guardrail): Guardrail => ({
    name: guardrail.name,
    check: (call, ctx) => {
      record('guardrail', guardrail.name, call, ctx);
      return guardrail.check(call, ctx);
    },
  });
  const guardrails = [
    ...(scenario.maxBytes !== undefined ? [createArgumentSizeGuardrail(scenario.maxBytes)] : []),
    createToolPolicyGuardrail(scenario.policy),
    createSchemaGuardrail((name) => byName.get(name)),
  ].map(recorded);
  const hooks: ToolCallHook[] = [
    {
      name: 'outer',
      beforeCall: (call, ctx) => void record('beforeCall', 'outer', call, ctx),
      afterCall: (call, result, ctx) => {
        record('afterCall', 'outer', call, ctx);
        return { result: { wrapped: result } };
      },
      onError: (call, _error, ctx) => void record('onError', 'outer', call, ctx),
    },
    {
      name: 'no-forbidden',
      beforeCall: (call, ctx) => {
        record('beforeCall', 'no-forbidden', call, ctx);
        return Object.values(call.arguments).includes('forbidden')
          ? { deny: 'forbidden value' }
          : undefined;
      },
      afterCall: (call, _result, ctx) => void record('afterCall', 'no-forbidden', call, ctx),
    },
  ];
  let next = 0;
  const ask: ApprovalAdapter = createCallbackApproval((request) => {
    record('approval', 'ask', request.call, { ...request, tool: request.tool } as DispatchContext);
    const answer = scenario.answers[next++ % scenario.answers.length]!;
    if (answer === 'throw') throw new Error('the approval UI crashed');
    return answer;
  });
  const approval = createPolicyApproval({
    ...(scenario.require ? { require: scenario.require } : {}),
    ...(scenario.autoApprove ? { autoApprove: scenario.autoApprove } : {}),
    otherwise: scenario.otherwise,
    ask,
  });
  const dispatch = createDispatcher({
    execute: (call, ctx) => {
      record('execute', 'execute', call, ctx);
      if (Object.values(call.arguments).includes('boom')) throw new Error('the tool exploded');
      return { tool: call.name, received: call.arguments };
    },
    guardrails,
    hooks,
    approval,
    resolveTool: (name) => byName.get(name),
  });
  return { log, dispatch };
}

function argumentsOf(call: Scenario['calls'][number]): Record<string, unknown> {
  // The bridge refuses calls that miss a required argument before dispatch; give
  // every required key a value so that each call reaches the dispatcher.
  const args: Record<string, unknown> = { ...call.values };
  for (const key of call.tool.inputSchema.required ?? []) {
    if (!(key in args)) args[key] = 'filled';
  }
  return args;
}

const strip = ({ via: _via, ...rest }: Invocation) => rest;

describe('dispatch through tool_call and directly', () => {
  it('meets the same guardrails, hooks and approvals, on the real name and arguments, with the same result', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const assembly = assembleTools({
          tools: [...coreTools, ...scenario.tools],
          config: { enabled: 'on' },
          ranker, // search plays no part in tool_call; the reference ranker is the cheapest
        });
        expect(assembly.activated).toBe(true);
        const bridged = world(scenario);
        const direct = world(scenario);
        const accepted: { name: string; arguments: Record<string, unknown> }[] = [];
        for (const call of scenario.calls) {
          const args = argumentsOf(call);
          const name = call.tool.name;
          const id = call.id !== undefined ? { id: call.id } : {};
          const checked = validateArguments(call.tool.inputSchema, args);
          expect(checked.status).not.toBe('unchecked');
          const viaBridge = await handleBridgeCall(
            assembly,
            {
              ...id,
              name: 'tool_call',
              arguments: { name, arguments: call.asJson ? JSON.stringify(args) : args },
            },
            bridged.dispatch,
            { context: call.sessionId !== undefined ? { sessionId: call.sessionId } : {} },
          );
          if (checked.status !== 'valid') {
            expect(viaBridge).toMatchObject({ error: expect.stringContaining('was not invoked') });
            continue;
          }
          accepted.push({ name, arguments: checked.arguments });
          const directly = await direct.dispatch(
            { ...id, name, arguments: checked.arguments },
            call.sessionId !== undefined ? { sessionId: call.sessionId } : {},
          );
          expect(viaBridge).toEqual(directly);
          expect(['ok', 'denied', 'error']).toContain((directly as DispatchResult).status);
        }
        expect(bridged.log.map(strip)).toEqual(direct.log.map(strip));
        expect(bridged.log.every((entry) => entry.via === 'bridge')).toBe(true);
        expect(direct.log.every((entry) => entry.via === 'direct')).toBe(true);
        // Every step saw the real tool (never a bridge name), its definition, and the
        // arguments the bridge accepted.
        for (const entry of bridged.log) {
          expect(entry.call.name).not.toBe('tool_call');
          expect(accepted).toContainEqual(entry.call);
          expect(entry.toolName).toBe(entry.call.name);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('reaches every outcome across the generated scenarios', async () => {
    // Guards the property above against testing only one path.
    const statuses = new Set<string>();
    const deniers = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const { dispatch } = world(scenario);
        for (const call of scenario.calls) {
          const result = await dispatch(
            { name: call.tool.name, arguments: argumentsOf(call) },
            { sessionId: 's' },
          );
          statuses.add(result.status);
          if (result.status === 'denied') deniers.add(`${result.by.kind}:${result.by.name}`);
        }
      }),
      { numRuns: 300, seed: 42 },
    );
    expect([...statuses].sort()).toEqual(['denied', 'error', 'ok']);
    expect([...deniers]).toEqual(
      expect.arrayContaining([
        'guardrail:tool-policy',
        'guardrail:schema',
        'hook:no-forbidden',
        'approval:policy',
      ]),
    );
  }, 120_000);
});
