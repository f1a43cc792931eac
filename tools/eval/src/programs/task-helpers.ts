// What the tasks' scripts share: the calls a model sends, and reading what it was sent.
import { type ProgramResult, TOOL_PROGRAM } from '@tool-search/code';
import type { ToolCall } from '@tool-search/core';
import type { Arm, Seen } from './runner.js';

/** Which target a task is checked against. */
export type TaskTarget = 'fan-out' | 'large-result' | 'sequential';

/** One task of the A/B: the user's request and the ways to solve it. */
export interface Task {
  id: string;
  title: string;
  prompt: string;
  /** The target the task is held to, if any. */
  target?: TaskTarget;
  arms: Arm[];
}

/** A call of a tool by its name. */
export const call = (name: string, args: Record<string, unknown>): ToolCall => ({
  name,
  arguments: args,
});

/** A call of tool_program with a program's source (its indentation removed). */
export function program(source: string): ToolCall {
  const lines = source.replace(/^\s*\n|\n\s*$/g, '').split('\n');
  const indents = lines
    .filter((line) => line.trim() !== '')
    .map((line) => line.length - line.trimStart().length);
  const indent = Math.min(...indents);
  return call(TOOL_PROGRAM, { source: lines.map((line) => line.slice(indent)).join('\n') });
}

/**
 * The value of a call the model saw succeed.
 *
 * @throws `Error` when the call did not succeed (the script read a failure it did not expect)
 */
export function resultOf<T>(seen: Seen | undefined): T {
  if (seen === undefined || seen.status !== 'ok') {
    throw new Error(`the script expected a result, and was sent: ${seen?.text.slice(0, 300)}`);
  }
  return seen.value as T;
}

/**
 * The return value of a program the model saw complete.
 *
 * @throws `Error` when the program did not complete
 */
export function programValue<T>(seen: Seen | undefined): T {
  const result = resultOf<ProgramResult>(seen);
  if (result.status !== 'completed') {
    throw new Error(`the program failed: ${JSON.stringify(result.error)}`);
  }
  return result.result as T;
}

/** Counts per key, keys in alphabetical order. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)));
}
