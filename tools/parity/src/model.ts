// The parity property's world: random tools, random policies and random calls, and the
// outcome of a call as policy sees it. Every surface is judged by the same outcome.
import type { JsonSchemaObject, ToolCall, ToolDefinition } from '@tool-search/core';
import type { ApprovalAdapter, DispatchResult, Guardrail } from '@tool-search/hooks';
import fc from 'fast-check';

/** The properties a parity tool may take, with the JSON Schema of each. */
const PROPERTIES = {
  amount: { type: 'number' },
  count: { type: 'integer' },
  force: { type: 'boolean' },
  mode: { type: 'string', enum: ['fast', 'safe'] },
  note: { type: 'string' },
} as const satisfies Record<string, Record<string, unknown>>;

type PropertyName = keyof typeof PROPERTIES;
const PROPERTY_NAMES = Object.keys(PROPERTIES) as PropertyName[];

/** One tool of a parity world: its definition and which of its properties are required. */
export interface ParityTool {
  definition: ToolDefinition;
  properties: PropertyName[];
  required: PropertyName[];
}

/** How a policy treats one tool. */
export interface ToolPolicy {
  /** Refused by the `deny-list` guardrail. */
  denied: boolean;
  /** The approval adapter denies a call whose `amount` is above this (or `force` is true). */
  approvalLimit: number;
  /** The AI SDK's own `needsApproval` asks when `amount` is above this (absent: never). */
  nativeLimit?: number;
}

/** A world: tools, each with its policy. */
export interface ParityWorld {
  tools: ParityTool[];
  policies: ToolPolicy[];
}

/** One call of a world: the final arguments, and how the model wrote them. */
export interface ParityCall {
  tool: number;
  /** The arguments that must run (typed as the schema says). */
  final: Record<string, unknown>;
  /** The arguments as the model wrote them: numbers and booleans possibly as strings. */
  written: Record<string, unknown>;
}

/** What policy made of one call. */
export interface Outcome {
  status: 'ran' | 'denied';
  /** `guardrail:<name>` or `approval:<name>`, for a denial. */
  by?: string;
  /** The arguments the approval adapter (or the AI SDK's `needsApproval`) was asked about. */
  asked?: Record<string, unknown>;
  /** The arguments the tool ran with. */
  ran?: Record<string, unknown>;
  /** The arguments the AI SDK's own `needsApproval` asked the person about, when it asked. */
  native?: Record<string, unknown>;
}

const toolArbitrary = (index: number): fc.Arbitrary<ParityTool> =>
  fc
    .subarray(PROPERTY_NAMES, { minLength: 1 })
    .chain((properties) => fc.subarray(properties).map((required) => ({ properties, required })))
    .map(({ properties, required }) => {
      const inputSchema: JsonSchemaObject = {
        type: 'object',
        properties: Object.fromEntries(properties.map((name) => [name, { ...PROPERTIES[name] }])),
        ...(required.length > 0 ? { required: [...required] } : {}),
      };
      return {
        definition: {
          name: `ledger_action_${index}`,
          description: `Ledger action number ${index}: moves an amount between accounts.`,
          inputSchema,
          source: 'mcp',
          toolset: 'mcp-ledger',
        },
        properties,
        required,
      };
    });

const policyArbitrary: fc.Arbitrary<ToolPolicy> = fc.record(
  {
    denied: fc.boolean(),
    approvalLimit: fc.integer({ min: -50, max: 200 }),
    nativeLimit: fc.integer({ min: -50, max: 200 }),
  },
  { requiredKeys: ['denied', 'approvalLimit'] },
);

/** Three to five tools, each with a policy. */
export const worldArbitrary: fc.Arbitrary<ParityWorld> = fc
  .integer({ min: 3, max: 5 })
  .chain((size) =>
    fc.record({
      tools: fc.tuple(...Array.from({ length: size }, (_, index) => toolArbitrary(index))),
      policies: fc.array(policyArbitrary, { minLength: size, maxLength: size }),
    }),
  );

const valueArbitrary: Record<PropertyName, fc.Arbitrary<unknown>> = {
  amount: fc.integer({ min: -1_000, max: 1_000 }).map((n) => n / 4),
  count: fc.integer({ min: -100, max: 10_000 }),
  force: fc.boolean(),
  mode: fc.constantFrom('fast', 'safe'),
  note: fc.string({ maxLength: 12 }),
};

/** A call of one of the world's tools, every required argument present. */
export const callArbitrary = (world: ParityWorld): fc.Arbitrary<ParityCall> =>
  fc.integer({ min: 0, max: world.tools.length - 1 }).chain((tool) => {
    const { properties, required } = world.tools[tool]!;
    const entries = properties.map((name) =>
      fc.record({
        name: fc.constant(name),
        present: required.includes(name) ? fc.constant(true) : fc.boolean(),
        value: valueArbitrary[name],
        asString: fc.boolean(),
      }),
    );
    return fc.tuple(...entries).map((values) => {
      const final: Record<string, unknown> = {};
      const written: Record<string, unknown> = {};
      for (const { name, present, value, asString } of values) {
        if (!present) continue;
        final[name] = value;
        // A model writes a number or a boolean as a string now and then; the bridge repairs it.
        written[name] = asString && typeof value !== 'string' ? String(value) : value;
      }
      return { tool, final, written };
    });
  });

/** What a run of one surface saw: the approval questions and the executions, in order. */
export interface Recorder {
  asked: ToolCall[];
  ran: ToolCall[];
  native: ToolCall[];
}

/** A fresh recorder. */
export function createRecorder(): Recorder {
  return { asked: [], ran: [], native: [] };
}

/** The guardrail, the approval adapter and an audit of one world, recording into `recorder`. */
export function policyOf(world: ParityWorld, recorder: Recorder) {
  const policyOfName = (name: string) => {
    const index = world.tools.findIndex((tool) => tool.definition.name === name);
    return index === -1 ? undefined : world.policies[index];
  };
  const guardrail: Guardrail = {
    name: 'deny-list',
    check: (call) =>
      policyOfName(call.name)?.denied === true
        ? { allow: false, reason: `'${call.name}' is on the deny list` }
        : { allow: true },
  };
  const approval: ApprovalAdapter = {
    name: 'parity',
    async request({ call }) {
      recorder.asked.push(structuredClone(call));
      const policy = policyOfName(call.name);
      const amount = call.arguments['amount'];
      const over =
        typeof amount === 'number' && policy !== undefined && amount > policy.approvalLimit;
      return over || call.arguments['force'] === true ? 'deny' : 'allow-once';
    },
  };
  const needsApproval = (name: string, input: Record<string, unknown>): boolean => {
    const limit = policyOfName(name)?.nativeLimit;
    const amount = input['amount'];
    return limit !== undefined && typeof amount === 'number' && amount > limit;
  };
  return { guardrail, approval, needsApproval };
}

/** The executor every surface's dispatcher runs: it records the call and echoes it. */
export function recordingExecute(recorder: Recorder) {
  return (call: ToolCall) => {
    recorder.ran.push(structuredClone(call));
    return { ran: call.name, arguments: call.arguments };
  };
}

/**
 * The outcome of one call from what the recorder saw and how the dispatch settled.
 *
 * @param recorder - what the surface's approval and executor saw for this call alone
 * @param denied - `<kind>:<name>` when the call was denied
 */
export function outcomeOf(recorder: Recorder, denied?: string): Outcome {
  const outcome: Outcome = { status: recorder.ran.length > 0 ? 'ran' : 'denied' };
  if (denied !== undefined && recorder.ran.length === 0) outcome.by = denied;
  if (recorder.asked.length > 0) outcome.asked = recorder.asked.at(-1)!.arguments;
  if (recorder.ran.length > 0) outcome.ran = recorder.ran.at(-1)!.arguments;
  return outcome;
}

/** `<kind>:<name>` of a denied dispatch result, else undefined. */
export function deniedBy(result: DispatchResult | undefined): string | undefined {
  return result?.status === 'denied' ? `${result.by.kind}:${result.by.name}` : undefined;
}
