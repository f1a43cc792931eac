import type { StartedGateway } from '@tool-search/mcp-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  inScope,
  node22,
  type ReferenceServer,
  runSuite,
  type SuiteReport,
  startGatewayFront,
  startReference,
} from './harness.js';

/**
 * In-scope scenarios the reference passes alone that do not pass through the gateway yet,
 * each with why. A ratchet: one that starts passing fails this test until it is taken off.
 */
const KNOWN_GAPS: Readonly<Record<string, string>> = {};

/** The table the report quotes: every scenario, alone and through the gateway. */
function table(reference: SuiteReport, through: Record<string, SuiteReport>): string {
  const modes = Object.keys(through);
  const lines = [
    `| scenario | reference | ${modes.join(' | ')} |`,
    `|---|---|${modes.map(() => '---|').join('')}`,
  ];
  const cell = (outcome: { ok: boolean; passed: number; failed: number } | undefined) =>
    outcome === undefined
      ? 'not run'
      : `${outcome.ok ? 'pass' : 'FAIL'} ${outcome.passed}/${outcome.passed + outcome.failed}`;
  for (const [name, outcome] of reference) {
    lines.push(
      `| ${name} | ${cell(outcome)} | ${modes.map((mode) => cell(through[mode]!.get(name))).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

describe('the 2026-07-28 server scenarios of the conformance suite', () => {
  let reference: ReferenceServer;
  const gateways: StartedGateway[] = [];

  beforeAll(async () => {
    reference = await startReference(await node22());
  });

  afterAll(async () => {
    await Promise.allSettled(gateways.map((gateway) => gateway.close()));
    await reference?.stop();
  });

  it('passes through the gateway every in-scope scenario the reference passes alone', async () => {
    const runtime = await node22();
    const alone = await runSuite(runtime, reference.url);
    expect(alone.size).toBeGreaterThan(30);
    const through: Record<string, SuiteReport> = {};
    for (const toolSearch of ['off', 'default'] as const) {
      const gateway = await startGatewayFront(reference.url, toolSearch);
      gateways.push(gateway);
      through[`gateway (tool search ${toolSearch})`] = await runSuite(runtime, gateway.url!);
    }
    console.log(table(alone, through));
    for (const [mode, report] of Object.entries(through)) {
      const passedAlone = [...alone].filter(([name, outcome]) => inScope(name) && outcome.ok);
      const lost = passedAlone
        .filter(([name]) => KNOWN_GAPS[name] === undefined && report.get(name)?.ok !== true)
        .map(([name]) => name);
      const mended = passedAlone
        .filter(([name]) => KNOWN_GAPS[name] !== undefined && report.get(name)?.ok === true)
        .map(([name]) => name);
      expect({ mode, lost, mended }).toEqual({ mode, lost: [], mended: [] });
    }
  });
});
