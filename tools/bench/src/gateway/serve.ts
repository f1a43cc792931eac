/**
 * The gateway of the first-search benchmark, run as its own process (a fresh gateway):
 * `startGateway` of `@tool-search/mcp` on loopback HTTP in front of the app's
 * `recorded-server` (397 real tool definitions). Once the upstreams are ready and the
 * warm-up (unless `--no-warm-up`) is done, it prints one JSON line with its URL, token
 * and warm-up report, and serves until its stdin closes.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { WarmUpReport } from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { startGateway } from '@tool-search/mcp-http';

const require = createRequire(import.meta.url);
const GATEWAY_CLI = join(
  dirname(require.resolve('@tool-search/gateway/package.json')),
  'dist',
  'cli.js',
);

async function main(): Promise<void> {
  const warmUp = !process.argv.includes('--no-warm-up');
  let warmed: (report: WarmUpReport) => void = () => {};
  const warmedUp = new Promise<WarmUpReport>((resolve) => {
    warmed = resolve;
  });
  const gateway = await startGateway({
    config: parseGatewayConfig({
      mcpServers: {
        recorded: { command: process.execPath, args: [GATEWAY_CLI, 'recorded-server'] },
      },
      toolSearch: { enabled: 'auto', threshold_pct: 10 },
    }),
    http: true,
    contextWindow: 128_000,
    warmUp,
    onWarmUp: warmed,
  });
  await gateway.ready();
  const report = warmUp ? await warmedUp : undefined;
  process.stdout.write(`${JSON.stringify({ url: gateway.url, token: gateway.token, report })}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void gateway.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
