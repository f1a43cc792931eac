import { renderTable } from '@tool-search/terminal';
import type { Stats } from './measure.js';
import type { SizeResult, SystemResult } from './results.js';

/** The size at which the targets apply. */
export const TARGET_SIZE = 10_000;
/** The size at which the registry-scale targets (issue 17) apply, but the 10,000-tool one. */
export const SCALE_TARGET_SIZE = 100_000;
const TARGET_RANKER = 'bm25:default';

/** One target of the issue, checked against one size's results. */
export interface TargetCheck {
  target: string;
  /** What was measured, e.g. `1,786x` or `520 B`. */
  measured: string;
  status: 'MET' | 'NOT MET' | 'NOT MEASURED';
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${significant(ms * 1e3)} µs`;
  if (ms < 1_000) return `${significant(ms)} ms`;
  return `${significant(ms / 1e3)} s`;
}

function significant(value: number): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '–';
  const sign = bytes < 0 ? '-' : '';
  const value = Math.abs(bytes);
  if (value < 1024) return `${sign}${value.toFixed(0)} B`;
  if (value < 1024 ** 2) return `${sign}${significant(value / 1024)} KB`;
  if (value < 1024 ** 3) return `${sign}${significant(value / 1024 ** 2)} MB`;
  return `${sign}${significant(value / 1024 ** 3)} GB`;
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  if (ratio >= 100) return `${Math.round(ratio).toLocaleString('en-US')}x`;
  if (ratio >= 10) return `${ratio.toFixed(1)}x`;
  return `${ratio.toFixed(2)}x`;
}

const count = (value: number): string => value.toLocaleString('en-US');

function cell(stats: Stats | undefined): string {
  if (stats === undefined || stats.samples === 0) return '–';
  return `${formatDuration(stats.p50)} / ${formatDuration(stats.p99)}`;
}

// Markdown, so that a run pastes into an issue; the first column left, numbers right.
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const columns = header.map((title, column) => ({
    header: title,
    align: column === 0 ? ('left' as const) : ('right' as const),
  }));
  return renderTable(columns, rows, { format: 'markdown' }).join('\n');
}

/** Row labels, also asserted by the smoke test. */
export const ROWS = {
  coldBuild: 'cold build + first search',
  oneTime: 'one-time setup: lazy loads, 3-tool build',
  firstBuild: 'first full build in process (1 run)',
  assemblyUnchanged: 'assembly, unchanged list',
  assemblyChanged: 'assembly, 1% changed',
  assemblyChangedTenth: 'assembly, 0.1% changed',
  query: 'query top-5',
  queryRankerIndex: 'query top-5, ranker index only',
  heap: 'retained heap per tool',
  heapAfterAssemblies: 'retained heap per tool, 6 assemblies',
  samples: 'samples: build / assembly / query',
} as const;

function heapCell(bytes: number | undefined, size: number): string {
  if (bytes === undefined) return '–';
  return `${formatBytes(bytes / size)} (${formatBytes(bytes)})`;
}

function mainTable(result: SizeResult): string {
  const systems = result.systems;
  const rebuild = (system: SystemResult) => (system.kind === 'peer' ? 'rebuild' : '–');
  const rows: string[][] = [
    [ROWS.coldBuild, ...systems.map((s) => cell(s.coldBuild))],
    [
      ROWS.oneTime,
      ...systems.map((s) =>
        s.oneTime === undefined
          ? '–'
          : `${formatDuration(s.oneTime.ms)}, ${formatBytes(s.oneTime.bytes)}`,
      ),
    ],
    [
      ROWS.firstBuild,
      ...systems.map((s) => (s.firstBuild === undefined ? '–' : formatDuration(s.firstBuild))),
    ],
    [
      ROWS.assemblyUnchanged,
      ...systems.map((s) => (s.assemblyUnchanged ? cell(s.assemblyUnchanged) : rebuild(s))),
    ],
    [
      ROWS.assemblyChanged,
      ...systems.map((s) => (s.assemblyChanged ? cell(s.assemblyChanged) : rebuild(s))),
    ],
    [
      ROWS.assemblyChangedTenth,
      ...systems.map((s) => (s.assemblyChangedTenth ? cell(s.assemblyChangedTenth) : rebuild(s))),
    ],
    [ROWS.query, ...systems.map((s) => cell(s.query))],
    [ROWS.queryRankerIndex, ...systems.map((s) => cell(s.queryRankerIndex))],
    [ROWS.heap, ...systems.map((s) => heapCell(s.retainedBytes, result.size))],
    [
      ROWS.heapAfterAssemblies,
      ...systems.map((s) => heapCell(s.retainedBytesAfterAssemblies, result.size)),
    ],
    [
      ROWS.samples,
      ...systems.map((s) =>
        [s.coldBuild?.samples, s.assemblyUnchanged?.samples, s.query?.samples]
          .map((n) => (n === undefined ? '–' : String(n)))
          .join(' / '),
      ),
    ],
  ];
  for (const system of systems) {
    if (system.skipped !== undefined) {
      const column = systems.indexOf(system) + 1;
      for (const row of rows) row[column] = row === rows[0] ? `skipped: ${system.skipped}` : '–';
    }
  }
  return table(['measurement (p50 / p99)', ...systems.map((s) => s.id)], rows);
}

function ratio(peerValue: number | undefined, ourValue: number | undefined): number {
  if (peerValue === undefined || ourValue === undefined || !(ourValue > 0)) return Number.NaN;
  return peerValue / ourValue;
}

function ratioTable(ours: SystemResult, peers: readonly SystemResult[]): string {
  const rows: string[][] = [
    [
      ROWS.coldBuild,
      ...peers.map((p) => formatRatio(ratio(p.coldBuild?.p50, ours.coldBuild?.p50))),
    ],
    [
      `${ROWS.assemblyUnchanged} (peer: rebuild)`,
      ...peers.map((p) => formatRatio(ratio(p.coldBuild?.p50, ours.assemblyUnchanged?.p50))),
    ],
    [
      `${ROWS.assemblyChanged} (peer: rebuild)`,
      ...peers.map((p) => formatRatio(ratio(p.coldBuild?.p50, ours.assemblyChanged?.p50))),
    ],
    [
      `${ROWS.assemblyChangedTenth} (peer: rebuild)`,
      ...peers.map((p) => formatRatio(ratio(p.coldBuild?.p50, ours.assemblyChangedTenth?.p50))),
    ],
    [`${ROWS.query} p50`, ...peers.map((p) => formatRatio(ratio(p.query?.p50, ours.query?.p50)))],
    [`${ROWS.query} p99`, ...peers.map((p) => formatRatio(ratio(p.query?.p99, ours.query?.p99)))],
    [ROWS.heap, ...peers.map((p) => formatRatio(ratio(p.retainedBytes, ours.retainedBytes)))],
  ];
  return [
    `Ratios for ${ours.id}: peer ÷ ours, at p50 unless marked (above 1x: ours is faster or smaller)`,
    '',
    table(['measurement', ...peers.map((p) => p.id)], rows),
  ].join('\n');
}

function tokenTable(result: SizeResult): string {
  const { tokens } = result;
  const gpt = tokens.gptTokenizer;
  const rows: string[][] = [
    [
      'estimateToolTokens, chars/4, cold (new objects)',
      cell(tokens.estimateCold),
      count(tokens.estimateTotal),
    ],
    [
      'estimateToolTokens, chars/4, warm (memoized)',
      cell(tokens.estimateWarm),
      count(tokens.estimateTotal),
    ],
  ];
  if (gpt !== undefined) {
    rows.push([
      `gpt-tokenizer countTokens (${gpt.encoding}), reference`,
      cell(gpt.count),
      `${count(gpt.total)} (estimate ÷ exact: ${(tokens.estimateTotal / gpt.total).toFixed(2)})`,
    ]);
  }
  const note = gpt === undefined ? '' : `\ngpt-tokenizer load: ${formatDuration(gpt.loadMs)}`;
  return `${table(['token estimate of the whole list', 'p50 / p99', 'tokens'], rows)}${note}`;
}

/**
 * Checks the targets for one size (they apply at 10,000 tools, default ranker).
 */
export function checkTargets(result: SizeResult): TargetCheck[] {
  const ours =
    result.systems.find((s) => s.id === TARGET_RANKER) ??
    result.systems.find((s) => s.kind === 'ours');
  const peer = (id: string) => result.systems.find((s) => s.id === id && s.skipped === undefined);
  const checks: TargetCheck[] = [];
  const add = (target: string, value: number, measured: string, met: (value: number) => boolean) =>
    checks.push({
      target,
      measured: Number.isFinite(value) ? measured : '–',
      status: Number.isFinite(value) ? (met(value) ? 'MET' : 'NOT MET') : 'NOT MEASURED',
    });
  const minisearch = peer('minisearch');
  const orama = peer('orama');
  const speedup = (p: SystemResult | undefined) => ratio(p?.query?.p50, ours?.query?.p50);
  const vsMini = speedup(minisearch);
  add(
    'query p50 at least 20x faster than minisearch',
    vsMini,
    `${formatRatio(vsMini)} faster`,
    (v) => v >= 20,
  );
  const vsOrama = speedup(orama);
  add(
    'query p50 at least 20x faster than orama',
    vsOrama,
    `${formatRatio(vsOrama)} faster`,
    (v) => v >= 20,
  );
  const build = ratio(ours?.coldBuild?.p50, minisearch?.coldBuild?.p50);
  add(
    'cold build no slower than minisearch',
    build,
    `${formatDuration(ours?.coldBuild?.p50 ?? Number.NaN)} vs ${formatDuration(minisearch?.coldBuild?.p50 ?? Number.NaN)} (${formatRatio(build)} of minisearch)`,
    (v) => v <= 1,
  );
  const fraction = (stats: Stats | undefined) => ratio(stats?.p50, ours?.coldBuild?.p50);
  const unchanged = fraction(ours?.assemblyUnchanged);
  add(
    'assembly over an unchanged list at most 1/50 of a cold build',
    unchanged,
    `1/${(1 / unchanged).toFixed(1)} (${formatDuration(ours?.assemblyUnchanged?.p50 ?? Number.NaN)})`,
    (v) => v <= 1 / 50,
  );
  const changed = fraction(ours?.assemblyChanged);
  add(
    'assembly with 1% changed at most 1/10 of a cold build',
    changed,
    `1/${(1 / changed).toFixed(1)} (${formatDuration(ours?.assemblyChanged?.p50 ?? Number.NaN)})`,
    (v) => v <= 1 / 10,
  );
  const perTool = (ours?.retainedBytes ?? Number.NaN) / result.size;
  add(
    'retained heap at most 1 KB per tool',
    perTool,
    `${formatBytes(perTool)} per tool`,
    (v) => v <= 1024,
  );
  return checks;
}

/**
 * Checks the registry-scale targets of issue 17 for one size: they apply at 100,000
 * tools (default ranker), the first-build one at 10,000.
 */
export function checkScaleTargets(result: SizeResult): TargetCheck[] {
  const ours =
    result.systems.find((s) => s.id === TARGET_RANKER) ??
    result.systems.find((s) => s.kind === 'ours');
  const minisearch = result.systems.find((s) => s.id === 'minisearch' && s.skipped === undefined);
  const checks: TargetCheck[] = [];
  const add = (target: string, value: number, measured: string, met: (value: number) => boolean) =>
    checks.push({
      target,
      measured: Number.isFinite(value) ? measured : '–',
      status: Number.isFinite(value) ? (met(value) ? 'MET' : 'NOT MET') : 'NOT MEASURED',
    });
  const speedup = ratio(minisearch?.query?.p50, ours?.query?.p50);
  add(
    'query p50 at least 100x faster than minisearch',
    speedup,
    `${formatRatio(speedup)} faster`,
    (v) => v >= 100,
  );
  const build = ratio(ours?.coldBuild?.p50, minisearch?.coldBuild?.p50);
  add(
    'cold build no slower than minisearch',
    build,
    `${formatRatio(build)} of minisearch`,
    (v) => v <= 1,
  );
  const fraction = (stats: Stats | undefined, at: number, label: string) => {
    const value = ratio(stats?.p50, ours?.coldBuild?.p50);
    add(
      `${label} at most 1/${at} of a cold build`,
      value,
      `1/${(1 / value).toFixed(1)} (${formatDuration(stats?.p50 ?? Number.NaN)})`,
      (v) => v <= 1 / at,
    );
  };
  fraction(ours?.assemblyUnchanged, 500, 'assembly over an unchanged list');
  fraction(ours?.assemblyChanged, 20, 'assembly with 1% changed');
  fraction(ours?.assemblyChangedTenth, 100, 'assembly with 0.1% changed');
  const perTool = (ours?.retainedBytes ?? Number.NaN) / result.size;
  add(
    'retained heap at most 300 B per tool (memo included)',
    perTool,
    `${formatBytes(perTool)} per tool`,
    (v) => v <= 300,
  );
  // What the first catalog of a process costs: the one-time loads and the first full build.
  const first = (system: SystemResult | undefined) =>
    system?.oneTime === undefined || system.firstBuild === undefined
      ? Number.NaN
      : system.oneTime.ms + system.firstBuild;
  const firstRatio = ratio(first(ours), first(minisearch));
  add(
    'first build incl. one-time loads no slower than minisearch (at 10,000)',
    firstRatio,
    `${formatDuration(first(ours))} vs ${formatDuration(first(minisearch))} (${formatRatio(firstRatio)})`,
    (v) => v <= 1,
  );
  return checks;
}

function checkLines(title: string, checks: readonly TargetCheck[]): string {
  const width = Math.max(...checks.map((c) => c.target.length));
  const measuredWidth = Math.max(...checks.map((c) => c.measured.length));
  return [
    title,
    ...checks.map(
      (c) => `  ${c.target.padEnd(width)}  ${c.measured.padEnd(measuredWidth)}  ${c.status}`,
    ),
  ].join('\n');
}

function targetsText(result: SizeResult): string {
  const ours =
    result.systems.find((s) => s.id === TARGET_RANKER) ??
    result.systems.find((s) => s.kind === 'ours');
  const id = ours?.id ?? 'ours';
  const scope = (size: number) =>
    result.size === size
      ? `${id} at ${count(size)} tools`
      : `${id}; they apply at ${count(size)} tools, informational at ${count(result.size)}`;
  return [
    checkLines(`Targets (issue 7; ${scope(TARGET_SIZE)}):`, checkTargets(result)),
    checkLines(
      `Targets (issue 17; ${scope(SCALE_TARGET_SIZE)}, the first build at ${count(TARGET_SIZE)}):`,
      checkScaleTargets(result),
    ),
  ].join('\n\n');
}

/**
 * Whether other work competed for the CPUs: the load before this size started, or
 * at its end beyond what the bench itself adds (its main thread and GC threads).
 */
function busy(env: SizeResult['environment']): boolean {
  const [start, end] = env.loadAverage;
  return start > env.cores / 2 + 0.5 || end > env.cores + 1.5;
}

/** The whole report of one size: header, main table, ratios, tokens, targets. */
export function formatSizeReport(result: SizeResult): string {
  const env = result.environment;
  const source =
    result.source.kind === 'data'
      ? `real from ${result.source.file}`
      : `real from the vendored fallback ${result.source.file} (${result.source.fallbackReason ?? ''})`;
  const ours = result.systems.filter((s) => s.kind === 'ours');
  const peers = result.systems.filter((s) => s.kind === 'peer' && s.skipped === undefined);
  const parts = [
    `## ${count(result.size)} tools`,
    '',
    `${count(result.realCount)} ${source}; ${count(result.syntheticCount)} synthetic (seed ${result.seed}).`,
    `${env.node}, ${env.platform}, ${env.cpu}, ${env.cores} cores, ${env.memoryGb} GB${env.gcExposed ? '' : ', WITHOUT --expose-gc'}; load average ${env.loadAverage[0].toFixed(1)} → ${env.loadAverage[1].toFixed(1)}${busy(env) ? ' (BUSY machine: times are inflated and noisy)' : ''}; ${result.queries} queries; ${formatDuration(result.elapsedMs)} in all.`,
    `Assembly: ${result.assembly.description}.`,
    `Each timed build and assembly starts after two full collections and ${result.settle.ms} ms idle for the collector's concurrent work (--settle-ms ${result.settle.option === 'auto' ? 'auto: scaled with the heap, as at the first sample' : result.settle.option}).`,
    '',
    mainTable(result),
    '',
    'Peers keep no index to patch, so their new assembly is a full rebuild (the cold build).',
  ];
  if (peers.length > 0) {
    for (const system of ours) parts.push('', ratioTable(system, peers));
  }
  parts.push('', tokenTable(result), '', targetsText(result));
  return parts.join('\n');
}

/** The setup of every system, printed once. */
export function formatSetup(results: readonly SizeResult[]): string {
  const seen = new Map<string, string>();
  for (const result of results)
    for (const system of result.systems) seen.set(system.id, system.setup);
  return ['Systems:', ...[...seen].map(([id, setup]) => `  ${id}: ${setup}`)].join('\n');
}
