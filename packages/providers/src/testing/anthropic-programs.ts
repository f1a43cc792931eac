import { isRecord } from '@tool-search/core/internal';
import { type ProgramStep, programCallProblems, type StandInAnswer } from './stand-in-server.js';

/** The code execution tool versions that may call tools (`allowed_callers` values). */
export const CODE_EXECUTION_TYPES: ReadonlySet<string> = new Set([
  'code_execution_20250825',
  'code_execution_20260120',
  'code_execution_20260521',
]);

/**
 * The platform's rules of `allowed_callers` over one request's tools: known values only,
 * a code execution caller needs that code execution tool in the request, and a tool a
 * program may call takes no `strict: true`.
 *
 * @param custom - the request's client tools, by name
 * @param codeExecution - the type of the request's code execution tool, if any
 * @returns the rules broken
 */
export function callerProblems(
  custom: ReadonlyMap<string, Record<string, unknown>>,
  codeExecution: string | undefined,
): string[] {
  const problems: string[] = [];
  for (const [name, tool] of custom) {
    const callers = tool['allowed_callers'];
    if (callers === undefined || callers === null) continue;
    if (!Array.isArray(callers) || callers.length === 0) {
      problems.push(`tools.${name}: allowed_callers must be a non-empty array`);
      continue;
    }
    for (const caller of callers as unknown[]) {
      if (caller === 'direct') continue;
      if (typeof caller !== 'string' || !CODE_EXECUTION_TYPES.has(caller)) {
        problems.push(`tools.${name}: unknown allowed_callers value '${String(caller)}'`);
      } else if (caller !== codeExecution) {
        problems.push(`tools.${name}: allowed_callers names ${caller}, which is not in tools`);
      } else if (tool['strict'] === true) {
        problems.push(
          `tools.${name}: strict is not supported on a tool callable from code execution`,
        );
      }
    }
  }
  return problems;
}

interface Pending {
  programId: string;
  container: string;
  calls: Set<string>;
}

/** What the player needs of the request to start a program. */
export interface ProgramRequestView {
  loaded: ReadonlySet<string>;
  custom: ReadonlyMap<string, Record<string, unknown>>;
  codeExecution: string | undefined;
  nextId(): number;
  message(content: unknown[], stop: string, container?: string): unknown;
}

/** The stand-in's program model: it starts programs and settles them on the next request. */
export interface AnthropicProgramPlayer {
  /**
   * The rules a request continuing a program must keep: the container id passed back and
   * a last user message of `tool_result` blocks only, answering every nested call.
   * @param body - the request body
   * @returns the rules broken
   */
  check(body: Record<string, unknown>): string[];
  /**
   * Ends the pending program with the results of its nested calls.
   * @param body - the request body (checked)
   * @returns the `code_execution_tool_result` block and the program's output, or nothing pending
   */
  settle(body: Record<string, unknown>): { block: unknown; stdout: string } | undefined;
  /**
   * Starts a program that calls the step's tools at once.
   * @param step - the step
   * @param view - the request as read
   * @returns the response, or the rules the model's program would break
   */
  start(step: ProgramStep, view: ProgramRequestView): StandInAnswer;
}

function containerOf(body: Record<string, unknown>): unknown {
  const container = body['container'];
  return isRecord(container) ? container['id'] : container;
}

function lastUserBlocks(body: Record<string, unknown>): unknown[] {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
  const last = messages.at(-1);
  return isRecord(last) && last['role'] === 'user' && Array.isArray(last['content'])
    ? (last['content'] as unknown[])
    : [];
}

function resultText(block: Record<string, unknown>): string {
  const content = block['content'];
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content
        .filter((item) => isRecord(item) && item['type'] === 'text')
        .map((item) => String((item as Record<string, unknown>)['text']))
        .join('\n')
    : '';
}

/**
 * Creates the program model of one Anthropic stand-in.
 * @returns the player
 */
export function createAnthropicProgramPlayer(): AnthropicProgramPlayer {
  let pending: Pending | undefined;
  return {
    check(body) {
      if (pending === undefined) return [];
      const problems: string[] = [];
      if (containerOf(body) !== pending.container) {
        problems.push(
          `container: a request that answers a program's calls must pass the container '${pending.container}'`,
        );
      }
      const blocks = lastUserBlocks(body);
      const answered = new Set<string>();
      for (const block of blocks) {
        if (!isRecord(block) || block['type'] !== 'tool_result') {
          problems.push(
            "messages: the answer to a program's calls may hold only tool_result blocks",
          );
          continue;
        }
        answered.add(String(block['tool_use_id']));
      }
      for (const id of pending.calls) {
        if (!answered.has(id))
          problems.push(`messages: the program's call '${id}' is not answered`);
      }
      return problems;
    },
    settle(body) {
      if (pending === undefined) return undefined;
      const results = lastUserBlocks(body)
        .filter((block): block is Record<string, unknown> => isRecord(block))
        .map((block) => ({ content: resultText(block), is_error: block['is_error'] === true }));
      const stdout = JSON.stringify(results);
      const block = {
        type: 'code_execution_tool_result',
        tool_use_id: pending.programId,
        content: { type: 'code_execution_result', stdout, stderr: '', return_code: 0, content: [] },
      };
      pending = undefined;
      return { block, stdout };
    },
    start(step, view) {
      if (view.codeExecution === undefined) {
        return {
          ok: false,
          violations: [
            'the model wants to run a program, but the request has no code execution tool',
          ],
        };
      }
      const problems = programCallProblems(
        step,
        view.loaded,
        (name) => view.custom.get(name),
        view.codeExecution,
      );
      if (problems.length > 0) return { ok: false, violations: problems };
      const programId = `srvtoolu_${view.nextId()}`;
      const container = `container_${view.nextId()}`;
      const content: unknown[] = [
        {
          type: 'server_tool_use',
          id: programId,
          name: 'code_execution',
          input: { code: step.program.map((call) => `await ${call.call}(...)`).join('\n') },
          caller: { type: 'direct' },
        },
      ];
      const calls = new Set<string>();
      for (const call of step.program) {
        const id = `toolu_${view.nextId()}`;
        calls.add(id);
        content.push({
          type: 'tool_use',
          id,
          name: call.call,
          input: call.input,
          caller: step.caller ?? { type: view.codeExecution, tool_id: programId },
        });
      }
      pending = { programId, container, calls };
      return { ok: true, body: view.message(content, 'tool_use', container) };
    },
  };
}
