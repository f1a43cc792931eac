// tool_program through the gateway, a benchmark (not a test): the real gateway
// (`startGateway`) on loopback Streamable HTTP in front of server-everything over stdio,
// and an MCP SDK client.
//
// - program start: a `tool_program` call whose program only returns, end to end (HTTP,
//   the session, a warm worker, the result);
// - a fan-out of ten `get-sum` calls as one program (`Promise.all`) against the same ten
//   calls as ten `tool_call` requests one after the other (what a model does without
//   programs, without its own latency between them), and the ratio;
// - one `tool_call` of `get-sum`, for scale.
//
// Usage: pnpm --filter @tool-search/bench bench:gateway-programs [--runs 50] [--json]
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { startGateway } from '@tool-search/mcp-http';
import { percentile } from './measure.js';

const FAN_OUT = 10;

/** server-everything's entry, from the reference app that depends on it. */
function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const app = createRequire(require.resolve('@tool-search/gateway/package.json'));
  return app.resolve('@modelcontextprotocol/server-everything/dist/index.js');
}

interface Row {
  measure: string;
  samples: number;
  p50: number;
  p95: number;
}

function row(measure: string, samples: number[]): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    measure,
    samples: sorted.length,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function sample(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < runs + 5; index++) {
    const took = await timed(work);
    if (index >= 5) samples.push(took);
  }
  return samples;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '50' }, json: { type: 'boolean' } },
  });
  const runs = Number(values.runs);
  const gateway = await startGateway({
    config: parseGatewayConfig({
      mcpServers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } },
      toolSearch: { enabled: 'on' },
      programs: { enabled: true },
    }),
    http: true,
  });
  await gateway.ready();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gateway.url!), {
      requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
    }),
  );
  try {
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args });
    const fanOut = `return await Promise.all(Array.from({ length: ${FAN_OUT} }, (_, a) => tools['get-sum']({ a, b: 1 })));`;
    const check = (await call('tool_program', { source: fanOut })) as { isError?: boolean };
    if (check.isError === true) throw new Error('the fan-out program failed');
    const start = row(
      'tool_program start (return 1)',
      await sample(runs, () => call('tool_program', { source: 'return 1' })),
    );
    const single = row(
      'one tool_call of get-sum',
      await sample(runs, () => call('tool_call', { name: 'get-sum', arguments: { a: 1, b: 2 } })),
    );
    const program = row(
      `${FAN_OUT} get-sum in one tool_program`,
      await sample(runs, () => call('tool_program', { source: fanOut })),
    );
    const sequential = row(
      `${FAN_OUT} get-sum as ${FAN_OUT} tool_call requests`,
      await sample(runs, async () => {
        for (let a = 0; a < FAN_OUT; a++)
          await call('tool_call', { name: 'get-sum', arguments: { a, b: 1 } });
      }),
    );
    const rows = [start, single, program, sequential];
    const ratio = Math.round((sequential.p50 / program.p50) * 100) / 100;
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ rows, ratio, loadavg: loadavg() })}\n`);
      return;
    }
    for (const entry of rows) {
      process.stdout.write(
        `${entry.measure.padEnd(44)} ${String(entry.samples).padStart(4)} runs  p50 ${entry.p50.toFixed(2).padStart(8)} ms  p95 ${entry.p95.toFixed(2).padStart(8)} ms\n`,
      );
    }
    process.stdout.write(
      `ten tool_call requests / one program (p50): ${ratio}x; load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
  } finally {
    await client.close();
    await gateway.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
