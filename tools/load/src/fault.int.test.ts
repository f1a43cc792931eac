import { describe, expect, it } from 'vitest';
import { formatFaultReport } from './fault-report.js';
import { runFault } from './fault-run.js';
import { DEFAULT_OPTIONS } from './options.js';

describe('runFault (kill an upstream, hang another, SIGTERM the gateway)', () => {
  it('gives every client of every step an outcome, and sees the gateway and its upstreams exit', async () => {
    const report = await runFault({ ...DEFAULT_OPTIONS, sessions: 4, fault: true });
    expect(report.failures).toEqual([]);
    expect(report.sessions).toBe(4);
    expect(report.phases.length).toBeGreaterThanOrEqual(9);
    for (const phase of report.phases) {
      const total = Object.values(phase.outcomes).reduce((sum, count) => sum + count, 0);
      expect(total, phase.phase).toBe(4);
    }
    // Only what the harness controls is asserted; what the gateway answered is reported.
    const steps = new Map(report.phases.map((phase) => [phase.phase, phase.outcomes]));
    expect(steps.get('another upstream while one hangs')).toEqual({ result: 4 });
    expect(steps.get('after exit: a new call')).toEqual({ 'connection closed': 4 });
    const events = report.events.map((event) => event.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'upstream killed',
        'SIGTERM',
        'gateway exit',
        'upstreams after exit',
      ]),
    );
    const text = formatFaultReport(report);
    expect(text).toContain('What every client got');
    expect(text).toContain('The faults');
  });
});
