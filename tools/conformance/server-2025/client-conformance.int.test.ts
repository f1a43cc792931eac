import { beforeAll, describe, expect, it } from 'vitest';
import { runClientScenario, suiteNode, tsxCommand } from './suite.js';

const SCENARIO = 'elicitation-sep1034-client-defaults';

// A client behind the gateway meets the suite's server as it would alone: the server's
// elicitation reaches the client through the gateway, and the client's answer goes back.
describe(`the client scenario ${SCENARIO} through the gateway`, () => {
  let node: Awaited<ReturnType<typeof suiteNode>>;
  beforeAll(async () => {
    node = await suiteNode();
  });

  it.each([
    // The suite's own example, unchanged: SDK 1.32 reads its capability as no defaults.
    ['vendor/elicitation-defaults-test.ts', false],
    ['sdk-defaults-client.ts', true],
  ])('%s has the same outcome through the gateway as alone', async (file, passes) => {
    const alone = await runClientScenario(node, SCENARIO, tsxCommand(node, file));
    const through = await runClientScenario(
      node,
      SCENARIO,
      `${tsxCommand(node, 'client-through-gateway.ts')} ${file}`,
    );
    expect(alone.passed).toBe(passes);
    expect(through).toEqual(alone);
  });
});
