// Prints the table of the suite against the reference server alone and behind the gateway.
import { startGatewayInFront } from './gateway.js';
import { runServerSuite, startEverythingServer, suiteNode } from './suite.js';

const node = await suiteNode();
const reference = await startEverythingServer(node);
try {
  const alone = await runServerSuite(node, reference.url);
  const rows = new Map(alone.map((o) => [o.scenario, [o.passed ? 'pass' : 'FAIL']]));
  for (const setting of ['off', 'default'] as const) {
    const gateway = await startGatewayInFront(reference.url, setting);
    try {
      for (const o of await runServerSuite(node, gateway.url)) {
        rows
          .get(o.scenario)
          ?.push(o.passed ? 'pass' : `FAIL ${o.failures.join(' | ').slice(0, 160)}`);
      }
    } finally {
      await gateway.stop();
    }
  }
  console.log('| scenario | alone | gateway, tool search off | gateway, default |');
  for (const [scenario, cells] of rows) console.log(`| ${scenario} | ${cells.join(' | ')} |`);
} finally {
  await reference.stop();
}
process.exit(0);
