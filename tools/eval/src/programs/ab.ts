// `pnpm eval --programs`: every task solved by each of its arms against one world, the
// arms' answers compared, the costs set side by side and held to the issue's targets.
import { isDeepStrictEqual } from 'node:util';
import { type ArmResult, runArm } from './runner.js';
import type { Task, TaskTarget } from './task-helpers.js';
import { approvedWrite, deferredTool, failingTool } from './tasks-calls.js';
import { fanOut, join, largeResult, sequential } from './tasks-reads.js';
import { startWorld, type World } from './world.js';

/** Every task, in the order of the issue. */
export const TASKS: readonly Task[] = [
  fanOut,
  join,
  largeResult,
  approvedWrite,
  failingTool,
  deferredTool,
  sequential,
];

/** One target check: the task's first program arm against one of its direct arms. */
export interface TargetCheck {
  target: TaskTarget;
  direct: string;
  program: string;
  /** 1 − program / direct input tokens, by counter. */
  tokenSaving: { core: number; o200k: number };
  /** Direct round trips / program round trips. */
  roundTripRatio: number;
  pass: boolean;
  /** What the target asks. */
  rule: string;
}

/** The results of one task. */
export interface TaskResult {
  id: string;
  title: string;
  target?: TaskTarget;
  arms: ArmResult[];
  /** Whether every arm gave the same answer. */
  answersAgree: boolean;
  checks: TargetCheck[];
}

const RULES: Record<TaskTarget, string> = {
  'fan-out': '≥ 30% fewer input tokens and ≥ 2× fewer round trips',
  'large-result': '≥ 30% fewer input tokens and ≥ 2× fewer round trips',
  sequential: 'no more input tokens and no more round trips',
};

function check(target: TaskTarget, direct: ArmResult, program: ArmResult): TargetCheck {
  const saving = (counter: 'core' | 'o200k') =>
    1 - program.inputTokens[counter] / direct.inputTokens[counter];
  const tokenSaving = { core: saving('core'), o200k: saving('o200k') };
  const roundTripRatio = direct.roundTrips / program.roundTrips;
  const pass =
    target === 'sequential'
      ? tokenSaving.core >= 0 && tokenSaving.o200k >= 0 && roundTripRatio >= 1
      : tokenSaving.core >= 0.3 && tokenSaving.o200k >= 0.3 && roundTripRatio >= 2;
  return {
    target,
    direct: direct.label,
    program: program.label,
    tokenSaving,
    roundTripRatio,
    pass,
    rule: RULES[target],
  };
}

/** The target checks of a task: its first program arm against each direct arm that counts. */
export function checksOf(task: Pick<Task, 'target'>, arms: readonly ArmResult[]): TargetCheck[] {
  const { target } = task;
  const program = arms.find((arm) => arm.kind === 'program' && !arm.informational);
  if (target === undefined || program === undefined) return [];
  return arms
    .filter((arm) => arm.kind === 'direct' && !arm.informational)
    .map((direct) => check(target, direct, program));
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Runs one task's arms `repeat` times each; the counts come from the first run (they are
 * the same every run), the wall time is the median.
 *
 * @throws `Error` when an arm's script fails or the runs of an arm disagree on their counts
 */
export async function runTask(world: World, task: Task, repeat = 1): Promise<TaskResult> {
  const arms: ArmResult[] = [];
  for (const arm of task.arms) {
    const runs: ArmResult[] = [];
    for (let run = 0; run < repeat; run++) runs.push(await runArm(world, task.prompt, arm));
    const [first] = runs as [ArmResult];
    for (const other of runs) {
      if (
        other.toolCalls !== first.toolCalls ||
        other.inputTokens.core !== first.inputTokens.core
      ) {
        throw new Error(`${task.id} / ${arm.label}: the runs differ in their counts`);
      }
    }
    arms.push({ ...first, wallMs: median(runs.map((entry) => entry.wallMs)) });
  }
  const answersAgree = arms.every((arm) => isDeepStrictEqual(arm.answer, arms[0]!.answer));
  return {
    id: task.id,
    title: task.title,
    ...(task.target === undefined ? {} : { target: task.target }),
    arms,
    answersAgree,
    checks: checksOf(task, arms),
  };
}

/** Options of {@link runProgramsAb}. */
export interface ProgramsAbOptions {
  /** Task ids to run. @defaultValue every task */
  tasks?: readonly string[];
  /** Runs per arm (wall time is their median). @defaultValue 3 */
  repeat?: number;
  /** Told when a task is done. */
  onTask?: (result: TaskResult) => void;
}

/**
 * Starts the fixture servers, runs the A/B and stops them.
 *
 * @throws `Error` for an unknown task id, a server that does not start, or a script that fails
 */
export async function runProgramsAb(options: ProgramsAbOptions = {}): Promise<TaskResult[]> {
  const known = TASKS.map((task) => task.id);
  for (const id of options.tasks ?? []) {
    if (!known.includes(id)) throw new Error(`Unknown task '${id}'. Known: ${known.join(', ')}.`);
  }
  const tasks =
    options.tasks === undefined ? TASKS : TASKS.filter((task) => options.tasks!.includes(task.id));
  const world = await startWorld();
  try {
    const results: TaskResult[] = [];
    for (const task of tasks) {
      const result = await runTask(world, task, options.repeat ?? 3);
      options.onTask?.(result);
      results.push(result);
    }
    return results;
  } finally {
    await world.close();
  }
}
