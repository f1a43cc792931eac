import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GATEWAY_EXTRAS } from './baseline-arms.js';
import { BASELINE_TABLES, formatBaselineReport } from './baseline-report.js';
import { runBaseline } from './baseline-run.js';
import { type CpuProfile, collapsedStacks, topSelfTimes } from './cpu-profile.js';
import { flameGraphSvg } from './flame-svg.js';
import { DEFAULT_OPTIONS, parseOptions, UsageError } from './options.js';

const folder = mkdtempSync(join(tmpdir(), 'tool-search-baseline-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('runBaseline (the CI smoke run: 1 and 2 sessions, 4 calls each)', () => {
  it('runs both arms and every extra with right answers only, and leaves a CPU profile', async () => {
    const cpuProf = join(folder, 'profile');
    const report = await runBaseline({
      ...DEFAULT_OPTIONS,
      baseline: true,
      levels: [1, 2],
      rounds: 1,
      operations: 4,
      cpuProf,
    });
    // Correctness only: every arm ran its calls and every answer was its own echo.
    expect(report.failures).toEqual([]);
    expect(report.rows.map((row) => [row.arm, row.sessions, row.calls])).toEqual([
      ['alone', 1, 4],
      ['gateway', 1, 4],
      ['alone', 2, 8],
      ['gateway', 2, 8],
    ]);
    for (const row of [...report.rows, ...report.extras]) {
      expect(row.wrong).toBe(0);
      expect(row.errors).toEqual({});
      // Linux: the servers' CPU time is read from /proc.
      expect(row.cpuMsPerCall).toBeGreaterThanOrEqual(0);
    }
    expect(report.extrasLevel).toBe(2);
    expect(report.extras.map((row) => row.arm)).toEqual([
      'gateway',
      ...GATEWAY_EXTRAS.map((extra) => `without ${extra}`),
    ]);
    expect(report.ratios.map((ratio) => ratio.sessions)).toEqual([1, 2]);
    const text = formatBaselineReport(report);
    for (const title of BASELINE_TABLES) expect(text).toContain(title);
    expect(text).toContain('ok: every answer was right on every arm');

    // The gateway ran under --cpu-prof and wrote its profile as it exited.
    const files = readdirSync(cpuProf).filter((name) => name.endsWith('.cpuprofile'));
    expect(files).toHaveLength(1);
    const profile = JSON.parse(readFileSync(join(cpuProf, files[0]!), 'utf8')) as CpuProfile;
    const top = topSelfTimes(profile, 10);
    expect(top.length).toBeGreaterThan(0);
    expect(top.every((row) => row.selfMs >= 0 && row.share <= 1)).toBe(true);
    const stacks = collapsedStacks(profile);
    expect(stacks.length).toBeGreaterThan(0);
    expect(stacks[0]).toMatch(/^\S.* \d+$/);
    expect(flameGraphSvg(stacks, 'test')).toMatch(/^<svg [\s\S]*<\/svg>\n$/);
  });
});

describe('the baseline options', () => {
  it('reads --baseline, --levels, --rounds and --cpu-prof, and refuses what does not fit', () => {
    expect(
      parseOptions(['--baseline', '--levels', '1,50', '--rounds', '3', '--cpu-prof', 'out']),
    ).toMatchObject({ baseline: true, levels: [1, 50], rounds: 3, cpuProf: 'out' });
    expect(() => parseOptions(['--cpu-prof', 'out'])).toThrow(UsageError);
    expect(() => parseOptions(['--baseline', '--fault'])).toThrow(UsageError);
    expect(() => parseOptions(['--baseline', '--levels', '0,10'])).toThrow(UsageError);
    expect(() => parseOptions(['--baseline', '--levels', '101'])).toThrow(UsageError);
  });

  it('reads --otel with --baseline only', () => {
    expect(parseOptions(['--baseline', '--otel'])).toMatchObject({ otel: true });
    expect(parseOptions(['--baseline'])).toMatchObject({ otel: false });
    expect(() => parseOptions(['--otel'])).toThrow(UsageError);
  });
});

describe('the profile summary', () => {
  // A hand-made profile: root → a → b, with b sampled twice and a once.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
      {
        id: 2,
        callFrame: { functionName: 'a', url: 'file:///x/packages/mcp/dist/a.js', lineNumber: 9 },
        children: [3],
      },
      {
        id: 3,
        callFrame: { functionName: 'b', url: 'file:///x/node_modules/pkg/b.js', lineNumber: 0 },
      },
      { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
    ],
    startTime: 0,
    endTime: 5000,
    samples: [3, 3, 2, 4, 3],
    timeDeltas: [0, 1000, 1000, 1000, 1000],
  };

  it('sums self time by function, leaves idle out, and collapses stacks', () => {
    const top = topSelfTimes(profile);
    expect(top.map((row) => [row.frame, row.selfMs])).toEqual([
      ['b pkg/b.js:1', 2],
      ['a packages/mcp/dist/a.js:10', 1],
    ]);
    expect(top[0]!.share).toBeCloseTo(2 / 3);
    expect(collapsedStacks(profile)).toEqual([
      'a packages/mcp/dist/a.js:10;b pkg/b.js:1 2000',
      'a packages/mcp/dist/a.js:10 1000',
    ]);
    const svg = flameGraphSvg(collapsedStacks(profile), 'a & b');
    expect(svg).toContain('a &amp; b');
    expect(svg).toContain('<title>b pkg/b.js:1 (2.0 ms, 66.7%)</title>');
  });
});
