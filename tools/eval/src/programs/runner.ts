// Replays one arm of a task: a scripted model sends, round trip by round trip, the tool
// calls a model would send (one or several per turn); the host answers each through the
// bridge, the real dispatcher or tool_program, exactly as a runtime does, and the answers
// go back into the conversation whose tokens are counted.
import { type Assembly, assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { type ProgramResult, TOOL_PROGRAM } from '@tool-search/code';
import type { ToolCall } from '@tool-search/core';
import type { DispatchResult } from '@tool-search/hooks';
import { createConversation, type Tokens } from './conversation.js';
import type { World } from './world.js';

/** What the model sees of one call's answer, and the value behind it. */
export interface Seen {
  status: 'ok' | 'denied' | 'error' | 'cancelled';
  /** The value: the tool's result, the bridge's answer, or tool_program's `ProgramResult`. */
  value?: unknown;
  /** The text the model is sent. */
  text: string;
}

/**
 * A scripted model: each `yield` is one round trip's tool calls, answered with what the
 * model sees of each; the return value is the final answer (the last round trip).
 */
export type Script = Generator<ToolCall[], unknown, Seen[]>;

/** One way to solve a task. */
export interface Arm {
  /** Shown in the table, e.g. `direct, one call per turn`. */
  label: string;
  /** `program` when the model solves it with tool_program; `direct` otherwise. */
  kind: 'direct' | 'program';
  /** Whether tool_program is among the model's tools. @defaultValue kind === 'program' */
  offersProgram?: boolean;
  /** Whether the targets are checked against this arm (the first program arm of a task is). */
  informational?: boolean;
  script: () => Script;
}

/** What one arm cost. */
export interface ArmResult {
  label: string;
  kind: 'direct' | 'program';
  informational: boolean;
  roundTrips: number;
  /** Summed over the round trips. */
  inputTokens: Tokens;
  /** The system prompt and tool definitions, sent on every round trip. */
  perRoundTrip: Tokens;
  /** The tool calls the model wrote (programs included): output tokens, the answer aside. */
  writtenTokens: Tokens;
  /** Dispatches through the dispatcher (direct, via tool_call or from programs). */
  toolCalls: number;
  /** Of those, the ones programs made (dispatched with `via: 'program'`). */
  fromPrograms: number;
  /** Approvals asked. */
  approvals: number;
  /** The host's time answering the calls, in milliseconds (the model's own time is not in it). */
  wallMs: number;
  answer: unknown;
}

/** The system prompt of every arm. */
export const SYSTEM_PROMPT =
  'You are an operations assistant for Example Corp. Use the tools to answer from live data; never guess values. When a tool fails, say which item could not be checked. Answer briefly.';

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

function seenOfDispatch(result: DispatchResult): Seen {
  switch (result.status) {
    case 'ok':
      return { status: 'ok', value: result.result, text: textOf(result.result) };
    case 'denied':
      return {
        status: 'denied',
        text: JSON.stringify({ status: 'denied', reason: result.reason }),
      };
    case 'error':
      return {
        status: 'error',
        text: JSON.stringify({
          status: 'error',
          code: result.error.code,
          error: result.error.message,
        }),
      };
    default:
      return {
        status: 'cancelled',
        text: JSON.stringify({ status: 'cancelled', reason: result.reason }),
      };
  }
}

const isDispatchResult = (value: unknown): value is DispatchResult =>
  typeof value === 'object' && value !== null && 'status' in value && 'call' in value;

/**
 * What the model is sent of a program's result: its status, return value, logs, calls and
 * error; the program's id and timings are the host's.
 */
export function programView(result: ProgramResult): object {
  const { programId: _id, cpuMs: _cpu, durationMs: _duration, ...view } = result;
  return view;
}

async function answer(world: World, assembly: Assembly, call: ToolCall): Promise<Seen> {
  if (call.name === TOOL_PROGRAM) {
    const result = await world.program.run(call.arguments, { sessionId: 'ab' });
    const status = result.status === 'completed' ? 'ok' : 'error';
    return { status, value: result, text: JSON.stringify(programView(result)) };
  }
  const bridged = handleBridgeCall(assembly, call, (real, ctx) =>
    world.dispatch(real, { ...ctx, sessionId: 'ab' }),
  );
  if (bridged !== undefined) {
    const result = await bridged;
    if (isDispatchResult(result)) return seenOfDispatch(result);
    const failed = typeof result === 'object' && result !== null && 'error' in result;
    return { status: failed ? 'error' : 'ok', value: result, text: JSON.stringify(result) };
  }
  const tool = world.tools().find((entry) => entry.name === call.name);
  return seenOfDispatch(
    await world.dispatch(call, { via: 'direct', sessionId: 'ab', ...(tool ? { tool } : {}) }),
  );
}

/**
 * Runs one arm against the world: the model's tools are assembled as a session would
 * (tool search on, the pinned servers loaded, the catalog deferred, tool_program when the
 * arm offers it); each round trip charges the whole conversation, then its calls are
 * answered concurrently, as a runtime runs a turn's parallel calls.
 *
 * @param world - the running world
 * @param prompt - the user's task
 * @param arm - the scripted model
 * @returns the arm's costs and answer
 * @throws the script's own error when it cannot read what it was sent
 */
export async function runArm(world: World, prompt: string, arm: Arm): Promise<ArmResult> {
  const offersProgram = arm.offersProgram ?? arm.kind === 'program';
  const assembly = assembleTools({
    tools: world.tools(),
    config: { enabled: 'on' },
    ...(offersProgram ? { program: world.program } : {}),
  });
  const conversation = createConversation(SYSTEM_PROMPT, assembly.tools);
  conversation.addMessage(prompt);
  const before = { ...world.counts };
  const script = arm.script();
  let wallMs = 0;
  let seen: Seen[] = [];
  for (;;) {
    conversation.charge();
    const step = script.next(seen);
    if (step.done) {
      return {
        label: arm.label,
        kind: arm.kind,
        informational: arm.informational ?? false,
        roundTrips: conversation.roundTrips,
        inputTokens: { ...conversation.input },
        perRoundTrip: conversation.perRoundTrip,
        writtenTokens: { ...conversation.written },
        toolCalls: world.counts.dispatches - before.dispatches,
        fromPrograms: world.counts.fromPrograms - before.fromPrograms,
        approvals: world.counts.approvals - before.approvals,
        wallMs,
        answer: step.value,
      };
    }
    for (const call of step.value) conversation.addMessage(JSON.stringify(call), 'model');
    const start = performance.now();
    seen = await Promise.all(step.value.map((call) => answer(world, assembly, call)));
    wallMs += performance.now() - start;
    for (const result of seen) conversation.addMessage(result.text);
  }
}
