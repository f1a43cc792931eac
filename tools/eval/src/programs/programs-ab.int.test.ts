// The A/B end to end on three tasks, against the real fixture servers over stdio and the
// real dispatcher: every arm reaches the same answer, the answer the records hold, with
// the same calls and approvals. Costs are reported, never asserted as times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksOf, runTask, type TaskResult } from './ab.js';
import { formatProgramsReport } from './report.js';
import type { ArmResult } from './runner.js';
import { FAILING_SKU, people, stockOf } from './servers/data.js';
import { countBy } from './task-helpers.js';
import { approvedWrite, failingTool } from './tasks-calls.js';
import { fanOut } from './tasks-reads.js';
import { startWorld, type World } from './world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 200_000);
afterAll(() => world?.close());

const programArm = (arms: readonly ArmResult[]) =>
  arms.find((arm) => arm.kind === 'program' && !arm.informational)!;

describe('the programs A/B', () => {
  it('answers the fan-out the same by direct calls and by one program, as the directory holds it', async () => {
    const result = await runTask(world, fanOut);
    const expected = countBy(people().slice(0, 20), (person) => person.office.city);
    expect(result.answersAgree).toBe(true);
    for (const arm of result.arms) expect(arm.answer, arm.label).toEqual(expected);
    // Every arm made the same twenty lookups (the one that looks first, one more); the
    // program's in one round trip.
    expect(result.arms.map((arm) => arm.toolCalls)).toEqual([20, 20, 20, 20, 21]);
    // The programs' lookups went through the dispatcher as calls from a program.
    expect(result.arms.map((arm) => arm.fromPrograms)).toEqual([0, 0, 0, 20, 20]);
    const program = programArm(result.arms);
    expect(program.roundTrips).toBe(2);
    // The twenty records never enter the program arm's conversation.
    for (const arm of result.arms.filter((entry) => entry.kind === 'direct')) {
      expect(program.inputTokens.o200k).toBeLessThan(arm.inputTokens.o200k);
    }
  }, 120_000);

  it('asks the person about each write in both arms, and opens the same tickets', async () => {
    const result = await runTask(world, approvedWrite);
    expect(result.answersAgree).toBe(true);
    expect(result.arms[0]!.answer).toEqual([
      expect.stringMatching(/^TCK-/),
      expect.stringMatching(/^TCK-/),
      expect.stringMatching(/^TCK-/),
    ]);
    expect(result.arms.map((arm) => [arm.toolCalls, arm.fromPrograms, arm.approvals])).toEqual([
      [6, 0, 3],
      [6, 0, 3],
      [6, 6, 3],
    ]);
  }, 120_000);

  it('reports the failing warehouse in every arm, and the program that did not expect it costs a retry', async () => {
    const result = await runTask(world, failingTool);
    const skus = Array.from({ length: 8 }, (_, index) => `SKU-${101 + index}`);
    const total = skus
      .filter((sku) => sku !== FAILING_SKU)
      .reduce((sum, sku) => sum + stockOf(sku), 0);
    expect(result.answersAgree).toBe(true);
    expect(result.arms[0]!.answer).toEqual({ total, unchecked: [FAILING_SKU] });
    // The first program stops at the fifth check, then the second makes all eight.
    expect(programArm(result.arms)).toMatchObject({ roundTrips: 3, toolCalls: 5 + 8 });
  }, 120_000);
});

/** A measured arm, for the checks and the report. */
const arm = (
  label: string,
  kind: 'direct' | 'program',
  tokens: number,
  roundTrips: number,
  more: Partial<ArmResult> = {},
): ArmResult => ({
  label,
  kind,
  informational: false,
  roundTrips,
  inputTokens: { core: tokens, o200k: tokens },
  perRoundTrip: { core: 0, o200k: 0 },
  writtenTokens: { core: 40, o200k: 40 },
  toolCalls: 1,
  fromPrograms: 0,
  approvals: 0,
  wallMs: 0,
  answer: null,
  ...more,
});

describe('checksOf', () => {
  it('holds a fan-out to 30% fewer tokens and half the round trips, against each direct arm', () => {
    const checks = checksOf({ target: 'fan-out' }, [
      arm('batched', 'direct', 1000, 2),
      arm('one by one', 'direct', 1000, 4),
      arm('barely', 'direct', 1000, 4),
      arm('program', 'program', 700, 2),
    ]);
    expect(checks.map((check) => [check.direct, check.pass])).toEqual([
      ['batched', false],
      ['one by one', true],
      ['barely', true],
    ]);
    const short = checksOf({ target: 'large-result' }, [
      arm('direct', 'direct', 1000, 4),
      arm('program', 'program', 701, 2),
    ]);
    expect(short[0]!.pass).toBe(false);
  });

  it('holds a sequential task to no more tokens and no more round trips, and checks nothing without a target', () => {
    const [check] = checksOf({ target: 'sequential' }, [
      arm('direct', 'direct', 1000, 4),
      arm('program', 'program', 1001, 2),
    ]);
    expect(check!.pass).toBe(false);
    expect(
      checksOf({}, [arm('direct', 'direct', 1000, 4), arm('program', 'program', 10, 2)]),
    ).toEqual([]);
  });
});

describe('formatProgramsReport', () => {
  const arms = [
    arm('direct', 'direct', 4000, 4, { toolCalls: 3, approvals: 1, wallMs: 12.5 }),
    arm('program', 'program', 2000, 2, { toolCalls: 3, approvals: 1, wallMs: 20 }),
  ];
  const results: TaskResult[] = [
    {
      id: 'chain',
      title: 'a chain',
      target: 'sequential',
      arms,
      answersAgree: true,
      checks: checksOf({ target: 'sequential' }, arms),
    },
  ];

  it('prints each arm with its ratios against the program arm, and the verdict of each target', () => {
    const text = formatProgramsReport(results);
    expect(text).toContain('chain: a chain');
    expect(text).toMatch(/direct\s+4\s+4,000\s+4,000\s+40\s+3\s+1\s+12\.5\s+2\.00×\s+2\.00×/);
    expect(text).toContain(
      "PASS sequential (no more input tokens and no more round trips) against 'direct': 50.0% fewer input tokens (o200k 50.0%), 2.00× fewer round trips",
    );
    expect(text).toContain('answers equal across arms: 1 of 1 tasks; target checks passed: 1 of 1');
  });

  it('prints one markdown table for the guide, the task named on its first row', () => {
    const lines = formatProgramsReport(results, 'markdown').split('\n');
    expect(lines[0]).toMatch(/^\| task\s+\| arm\s+\|/);
    expect(lines[2]).toMatch(/^\| chain\s+\| direct\s+\|/);
    expect(lines[3]).toMatch(/^\|\s+\| program\s+\|/);
    expect(lines).toContain(
      "- PASS sequential (no more input tokens and no more round trips) against 'direct': 50.0% fewer input tokens (o200k 50.0%), 2.00× fewer round trips",
    );
  });
});
