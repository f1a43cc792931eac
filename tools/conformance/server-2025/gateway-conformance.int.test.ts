import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayInFront, type ToolSearchSetting } from './gateway.js';
import {
  type RunningServer,
  runServerSuite,
  type ScenarioOutcome,
  startEverythingServer,
  suiteNode,
} from './suite.js';

// The suite's 2025-11-25 release: every active server scenario its reference server
// passes alone must pass through the gateway, with tool search off and on its default.
describe('the conformance suite 0.1.16 through the gateway', () => {
  let reference: RunningServer;
  let alone: ScenarioOutcome[];
  let node: Awaited<ReturnType<typeof suiteNode>>;

  beforeAll(async () => {
    node = await suiteNode();
    reference = await startEverythingServer(node);
    alone = await runServerSuite(node, reference.url);
  });
  afterAll(async () => {
    await reference?.stop();
  });

  it('the reference everything-server passes its 30 active scenarios alone', () => {
    expect(alone).toHaveLength(30);
    expect(alone.filter((outcome) => !outcome.passed)).toEqual([]);
  });

  it.each(['off', 'default'] satisfies ToolSearchSetting[])(
    'the same server behind the gateway (tool search %s) passes every scenario it passes alone',
    async (setting) => {
      const gateway = await startGatewayInFront(reference.url, setting);
      try {
        const through = await runServerSuite(node, gateway.url);
        const passedAlone = alone.filter((outcome) => outcome.passed).map((o) => o.scenario);
        const failed = through.filter(
          (outcome) => passedAlone.includes(outcome.scenario) && !outcome.passed,
        );
        expect(failed).toEqual([]);
        expect(through.map((outcome) => outcome.scenario)).toEqual(alone.map((o) => o.scenario));
      } finally {
        await gateway.stop();
      }
    },
  );
});
