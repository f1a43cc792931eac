import { createHash } from 'node:crypto';
import { isRecord } from '@tool-search/core/internal';
import { type ProgramStep, programCallProblems, type StandInAnswer } from './stand-in-server.js';

const CALLERS = new Set(['direct', 'programmatic']);

/**
 * The platform's rule of `allowed_callers` on one function: `direct` and `programmatic` only.
 *
 * @param fn - the function tool
 * @param where - where it sits, for the message
 * @returns the rules broken
 */
export function functionCallerProblems(fn: Record<string, unknown>, where: string): string[] {
  const callers = fn['allowed_callers'];
  if (callers === undefined || callers === null) return [];
  if (!Array.isArray(callers) || callers.length === 0) {
    return [`${where}.${String(fn['name'])}: allowed_callers must be a non-empty array`];
  }
  return (callers as unknown[])
    .filter((caller) => typeof caller !== 'string' || !CALLERS.has(caller))
    .map(
      (caller) =>
        `${where}.${String(fn['name'])}: unknown allowed_callers value '${String(caller)}'`,
    );
}

interface Pending {
  callId: string;
  calls: Set<string>;
}

/** What the player needs of the request to start a program. */
export interface OpenAIProgramRequestView {
  loaded: ReadonlySet<string>;
  functions: ReadonlyMap<string, Record<string, unknown> & { namespace?: string }>;
  programmatic: boolean;
  nextId(): number;
}

/** The stand-in's program model: it starts programs and settles them on the next request. */
export interface OpenAIProgramPlayer {
  /**
   * The rules an input must keep: every `program` item carried over unchanged (its
   * fingerprint too) before the calls it made, every output of a program's call carrying
   * the program `caller`, and every call of a pending program answered.
   * @param input - the request's input
   * @returns the rules broken
   */
  check(input: unknown): string[];
  /**
   * Ends the pending program with the outputs of its calls.
   * @param input - the request's input (checked)
   * @returns the `program_output` item and the program's result, or nothing pending
   */
  settle(input: unknown): { item: unknown; result: string } | undefined;
  /**
   * Starts a program that calls the step's functions at once.
   * @param step - the step
   * @param view - the request as read
   * @returns the output items, or the rules the model's program would break
   */
  start(step: ProgramStep, view: OpenAIProgramRequestView): StandInAnswer | { output: unknown[] };
}

function items(input: unknown): Record<string, unknown>[] {
  return Array.isArray(input) ? (input as unknown[]).filter(isRecord) : [];
}

function programCallerId(caller: unknown): string | undefined {
  return isRecord(caller) && caller['type'] === 'program' && typeof caller['caller_id'] === 'string'
    ? caller['caller_id']
    : undefined;
}

function checkItems(input: unknown, issued: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const programs = new Set<string>();
  const programCalls = new Map<string, string>();
  for (const [index, item] of items(input).entries()) {
    const where = `input[${index}]`;
    if (item['type'] === 'program') {
      const callId = String(item['call_id']);
      if (!issued.has(callId)) problems.push(`${where}: unknown program '${callId}'`);
      else if (issued.get(callId) !== item['fingerprint']) {
        problems.push(
          `${where}: the program item '${callId}' must be carried over unchanged (fingerprint)`,
        );
      }
      programs.add(callId);
    } else if (item['type'] === 'function_call') {
      const callerId = programCallerId(item['caller']);
      if (callerId === undefined) continue;
      if (!programs.has(callerId)) {
        problems.push(
          `${where}: a call of program '${callerId}' without its program item before it`,
        );
      }
      programCalls.set(String(item['call_id']), callerId);
    } else if (item['type'] === 'function_call_output') {
      const callerId = programCalls.get(String(item['call_id']));
      if (callerId !== undefined && programCallerId(item['caller']) !== callerId) {
        problems.push(
          `${where}: the output of a program's call must carry caller { type: 'program', caller_id: '${callerId}' }`,
        );
      }
    }
  }
  return problems;
}

function outputsOf(input: unknown, calls: ReadonlySet<string>): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const item of items(input)) {
    if (item['type'] !== 'function_call_output' || !calls.has(String(item['call_id']))) continue;
    const output = item['output'];
    outputs.set(
      String(item['call_id']),
      typeof output === 'string' ? output : JSON.stringify(output),
    );
  }
  return outputs;
}

function fingerprintOf(code: string): string {
  return `fp_${createHash('sha256').update(code).digest('hex').slice(0, 16)}`;
}

/**
 * Creates the program model of one OpenAI stand-in.
 * @returns the player
 */
export function createOpenAIProgramPlayer(): OpenAIProgramPlayer {
  const issued = new Map<string, string>();
  let pending: Pending | undefined;
  return {
    check(input) {
      const problems = checkItems(input, issued);
      if (pending === undefined) return problems;
      const outputs = outputsOf(input, pending.calls);
      for (const id of pending.calls) {
        if (!outputs.has(id)) problems.push(`input: the program's call '${id}' is not answered`);
      }
      return problems;
    },
    settle(input) {
      if (pending === undefined) return undefined;
      const result = JSON.stringify([...outputsOf(input, pending.calls).values()]);
      const item = {
        type: 'program_output',
        id: `po_${pending.callId}`,
        call_id: pending.callId,
        result,
        status: 'completed',
      };
      pending = undefined;
      return { item, result };
    },
    start(step, view) {
      if (!view.programmatic) {
        return {
          ok: false,
          violations: [
            'the model wants to run a program, but the request has no programmatic_tool_calling tool',
          ],
        };
      }
      const problems = programCallProblems(
        step,
        view.loaded,
        (name) => view.functions.get(name),
        'programmatic',
      );
      if (problems.length > 0) return { ok: false, violations: problems };
      const id = view.nextId();
      const callId = `call_prog_${id}`;
      const code = step.program
        .map((call) => `await tools.${call.call}(${JSON.stringify(call.input)});`)
        .join('\n');
      const fingerprint = fingerprintOf(`${callId}\n${code}`);
      issued.set(callId, fingerprint);
      const output: unknown[] = [
        { type: 'program', id: `prog_${id}`, call_id: callId, code, fingerprint },
      ];
      const calls = new Set<string>();
      for (const call of step.program) {
        const n = view.nextId();
        calls.add(`call_${n}`);
        const item: Record<string, unknown> = {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: call.call,
          arguments: JSON.stringify(call.input),
          status: 'completed',
          caller: step.caller ?? { type: 'program', caller_id: callId },
        };
        const namespace = view.functions.get(call.call)?.namespace;
        if (namespace !== undefined) item['namespace'] = namespace;
        output.push(item);
      }
      pending = { callId, calls };
      return { output };
    },
  };
}
