// The overhead of programs over tools (@tool-search/code), a benchmark (not a test):
//
// - program start: the time of `program.run` for a program that only returns, from a warm
//   pool (the worker and QuickJS already loaded; a fresh runtime and context per program);
// - nested-call overhead: what one `tools.call` from inside a program costs beyond the same
//   call dispatched directly (same dispatcher, a tool that answers at once);
// - the host's longest event-loop stall while a guest spins in a loop until its CPU limit.
//
// Targets (issue 28): start p95 <= 20 ms, nested-call overhead p95 <= 2 ms, stall <= 50 ms.
//
// Usage: pnpm --filter @tool-search/bench bench:programs [--runs 200] [--json]
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createProgramTool, type ProgramTool } from '@tool-search/code';
import type { ToolDefinition } from '@tool-search/core';
import { createDispatcher, type Dispatcher } from '@tool-search/hooks';
import { percentile } from './measure.js';

const TOOL: ToolDefinition = {
  name: 'echo_value',
  description: 'Answer the value it is given.',
  inputSchema: { type: 'object', properties: { value: { type: 'integer' } }, required: ['value'] },
  source: 'mcp',
  annotations: { readOnlyHint: true },
};
const CALLS_PER_PROGRAM = 20;

interface Row {
  measure: string;
  samples: number;
  p50: number;
  p95: number;
  max: number;
  target: string;
}

function row(measure: string, samples: number[], target: string): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    measure,
    samples: sorted.length,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    max: round(sorted.at(-1) ?? Number.NaN),
    target,
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function programStart(program: ProgramTool, runs: number): Promise<Row> {
  const samples: number[] = [];
  for (let index = 0; index < runs + 10; index++) {
    const took = await timed(() => program.run({ source: 'return 1' }));
    if (index >= 10) samples.push(took);
  }
  return row('program start (warm pool)', samples, '<= 20 ms');
}

async function nestedCallOverhead(
  program: ProgramTool,
  dispatch: Dispatcher,
  runs: number,
): Promise<Row> {
  const calls = `for (let value = 0; value < ${CALLS_PER_PROGRAM}; value++) await tools.echo_value({ value }); return 1;`;
  const samples: number[] = [];
  for (let index = 0; index < runs + 5; index++) {
    const empty = await timed(() => program.run({ source: 'return 1' }));
    const full = await timed(() => program.run({ source: calls }));
    const direct = await timed(async () => {
      for (let value = 0; value < CALLS_PER_PROGRAM; value++) {
        await dispatch({ name: TOOL.name, arguments: { value } }, { tool: TOOL });
      }
    });
    if (index >= 5) samples.push(Math.max(0, (full - empty - direct) / CALLS_PER_PROGRAM));
  }
  return row('nested-call overhead (per call)', samples, '<= 2 ms');
}

// The longest event-loop delay of the host while `work` runs, in milliseconds.
async function longestStall(work: () => Promise<void>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await work();
  histogram.disable();
  return histogram.max / 1e6;
}

async function stallWhileSpinning(program: ProgramTool, runs: number): Promise<Row> {
  const samples: number[] = [];
  for (let index = 0; index < Math.max(3, Math.round(runs / 40)); index++) {
    samples.push(
      await longestStall(async () => {
        const result = await program.run({ source: 'while (true) {}' });
        const code = result.error?.code;
        if (code !== 'program_cpu_limit') throw new Error(`the spin ended as ${code}`);
      }),
    );
  }
  return row('host event-loop stall while a guest spins (max per run)', samples, '<= 50 ms');
}

// The same measure with no program at all, for as long as a spin lasts: the machine's own
// noise (a busy machine stalls every process now and then).
async function stallBaseline(runs: number, spinMs: number): Promise<Row> {
  const samples: number[] = [];
  for (let index = 0; index < Math.max(3, Math.round(runs / 40)); index++) {
    samples.push(await longestStall(() => new Promise((resolve) => setTimeout(resolve, spinMs))));
  }
  return row('host event-loop stall, no program (baseline)', samples, 'for comparison');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '200' },
      json: { type: 'boolean', default: false },
    },
  });
  const runs = Math.max(10, Number(values.runs));
  const dispatch = createDispatcher({
    execute: (call) => ({ value: call.arguments['value'] }),
    resolveTool: (name) => (name === TOOL.name ? TOOL : undefined),
  });
  const program = createProgramTool({
    tools: [TOOL],
    dispatch,
    poolSize: 2,
    limits: { cpuTimeMs: 1_000, maxCalls: CALLS_PER_PROGRAM },
  });
  try {
    await program.warm();
    const rows = [
      await programStart(program, runs),
      await nestedCallOverhead(program, dispatch, Math.round(runs / 2)),
      await stallWhileSpinning(program, runs),
      await stallBaseline(runs, 1_000),
    ];
    if (values.json) {
      console.log(JSON.stringify(rows, null, 2));
    } else {
      const load = loadavg()
        .map((value) => value.toFixed(2))
        .join(' ');
      console.log(`programs over tools, node ${process.version}, load average ${load}`);
      console.table(rows);
    }
  } finally {
    await program.close();
  }
}

await main();
