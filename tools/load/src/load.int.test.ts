import { describe, expect, it } from 'vitest';
import { runLoad } from './load-run.js';
import { DEFAULT_OPTIONS } from './options.js';
import { formatLoadReport, LOAD_TABLES } from './report.js';
import { REFUSED } from './session.js';

describe('runLoad (the CI smoke run: 4 sessions × 10 operations)', () => {
  it('drives the real gateway process with every kind of operation and finds no leak and no lost write', async () => {
    const report = await runLoad({
      ...DEFAULT_OPTIONS,
      sessions: 4,
      operations: 10,
      profiles: 3,
      // Every kind of operation comes up within 10 operations per session at this seed.
      seed: 1,
    });
    const text = formatLoadReport(report);
    for (const title of LOAD_TABLES) expect(text).toContain(`${title}\n`);

    expect(report.profiles.map((profile) => profile.toolSearch)).toEqual([true, true, true]);
    expect(report.requests).toBeGreaterThanOrEqual(4 * 10);
    const kinds = report.operations.map((stats) => stats.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['tools/list', 'tool_search', 'call via tool_call', 'call direct']),
    );
    expect(report.writes.memoryWriters).toBe(1);
    expect(report.writes.acknowledged).toBeGreaterThan(0);
    expect(report.writes.lost).toEqual({ filesystem: 0, memory: 0 });
    expect(report.leaks).toEqual({ count: 0, examples: [] });
    expect(report.wrongAnswers.count).toBe(0);
    expect(report.malformed.count).toBe(0);
    // Every probe of another profile's tool was refused, and nothing else failed.
    const probes = report.operations.find((stats) => stats.kind === 'cross-profile probe');
    if (probes !== undefined) expect(probes.outcomes).toEqual({ [REFUSED]: probes.count });
    expect(report.errors).toEqual([]);
    expect(report.gateway.rssBeforeBytes).toBeGreaterThan(0);
    expect(report.gateway.rssAfterBytes).toBeGreaterThan(0);
    expect(report.gateway.upstreams).toBe(5);
    expect(report.gateway.orphans).toBe(0);
    expect(report.failures).toEqual([]);
    expect(text).toContain('ok: no leaks, no lost writes, no wrong answers');
  });
});

describe('runLoad against replicas (3 gateways on a Redis store behind nginx)', () => {
  it('loses no write and leaks nothing when every request may land on another replica', async () => {
    const report = await runLoad({
      ...DEFAULT_OPTIONS,
      sessions: 4,
      operations: 10,
      profiles: 3,
      seed: 1,
      replicas: 3,
    });
    expect(formatLoadReport(report)).toContain('3 (Redis, nginx)');
    expect(report.writes.acknowledged).toBeGreaterThan(0);
    expect(report.writes.lost).toEqual({ filesystem: 0, memory: 0 });
    expect(report.leaks).toEqual({ count: 0, examples: [] });
    expect(report.wrongAnswers.count).toBe(0);
    expect(report.malformed.count).toBe(0);
    expect(report.errors).toEqual([]);
    // Each replica runs its own five stdio upstreams, and none outlives its replica.
    expect(report.gateway.upstreams).toBe(15);
    expect(report.gateway.orphans).toBe(0);
    expect(report.failures).toEqual([]);
  });
});
