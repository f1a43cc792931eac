import { describe, expect, it } from 'vitest';
import { APPROVALS_TABLES, formatApprovalsReport } from './approvals-report.js';
import { runApprovals } from './approvals-run.js';
import { DEFAULT_OPTIONS, parseOptions } from './options.js';

describe('runApprovals against replicas (the CI smoke run: 4 sessions × 6 calls on 3 replicas)', () => {
  it('hands every approval answer to its own call, with the calls of a session on several replicas', async () => {
    const report = await runApprovals({
      ...DEFAULT_OPTIONS,
      approvals: true,
      sessions: 4,
      operations: 6,
      replicas: 3,
    });
    const text = formatApprovalsReport(report);
    for (const title of APPROVALS_TABLES) expect(text).toContain(`${title}\n`);
    expect(report.rows).toEqual([
      { decision: 'allow', calls: 12, asked: 12, answered: 12, crossed: 0, lost: 0 },
      { decision: 'deny', calls: 12, asked: 12, answered: 12, crossed: 0, lost: 0 },
      { decision: 'total', calls: 24, asked: 24, answered: 24, crossed: 0, lost: 0 },
    ]);
    expect(report.strayQuestions).toBe(0);
    expect(report.refusedAnswers).toBe(0);
    // Round robin without stickiness: the calls spread over the replicas.
    expect(report.replicas?.length).toBe(3);
    expect(report.replicas?.reduce((sum, entry) => sum + entry.calls, 0)).toBe(24);
    expect(report.sessionsOnSeveralReplicas).toBeGreaterThan(0);
    expect(report.failures).toEqual([]);
    expect(text).toContain('ok: every answer reached its own call (0 crossed, 0 lost)');
  });
});

describe('parseOptions --approvals', () => {
  it('selects the approvals run, and refuses it beside --fault', () => {
    expect(parseOptions(['--approvals', '--replicas', '3'])).toMatchObject({
      approvals: true,
      replicas: 3,
    });
    expect(() => parseOptions(['--approvals', '--fault'])).toThrow(/choose one/);
  });
});
