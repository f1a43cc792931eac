import { parseArgs } from 'node:util';
import { type AbstentionResult, evaluateAbstention, formatAbstentionTable } from './abstention.js';
import { DATA_SETS, type DataSetName, DEFAULT_DATA_DIR, type EvalSet, loadSet } from './data.js';
import { evaluateRanker, type SetResult } from './evaluate.js';
import { evaluateLearning, formatLearningTable } from './learning.js';
import { runProgramsAb, TASKS } from './programs/ab.js';
import { formatProgramsReport } from './programs/report.js';
import { ABLATIONS, DEFAULT_RANKERS, FLOOR_POINTS, RANKERS } from './rankers.js';
import { formatTable } from './table.js';

const TASK_IDS = TASKS.map((task) => task.id);

const USAGE = `Usage: pnpm eval [options]

Scores rankers on the labelled tool-retrieval sets and prints NDCG@10, R@1, R@5,
R@10 and MRR@10 per set and averaged, with NDCG@10 ratios against 'spec'.

Options:
  --data <dir>         the data folder (default: ${DEFAULT_DATA_DIR})
  --sets <a,b>         sets to run (default: ${DATA_SETS.join(',')})
  --rankers <a,b>      rankers to run (default: ${DEFAULT_RANKERS.join(',')})
                       known: ${[...RANKERS, ...FLOOR_POINTS].map((entry) => entry.name).join(', ')}
  --max-queries <n>    at most n queries per set, spread evenly over the file
  --ablations          run the default preset with each idea taken out instead
                       (${ABLATIONS.map((entry) => entry.name).join(', ')})
  --abstention         instead of the normal table: index half of each catalog (by a
                       hash of the tool name) and report the share of queries whose
                       tools are all in the other half answered with nothing, beside
                       NDCG@10 and the share answered with nothing of the others
                       (and the share of them shadowed by a near-duplicate)
  --learning           instead of the table: learning from use. Each set's queries are
                       split by a hash of their id into past traffic (replayed through
                       the bridge: search, then call the labelled tool) and a test half,
                       scored with and without what was learned (default ranker), then
                       after one token records 1,000 poisoning pairs
  --programs           instead of the table: the A/B of programs against direct calls.
                       Scripted models solve seven tasks (a fan-out of 20 lookups, a
                       paginated join, a 1 MB result, an approved write, a failing
                       tool, a deferred tool, a sequential chain) over real MCP servers
                       on stdio, through the real dispatcher; per arm: model round
                       trips, input tokens (summed over round trips), tool calls,
                       approvals, wall time; then the issue's targets. No data folder
                       is read.
  --tasks <a,b>        with --programs: the tasks to run (default: all)
  --repeat <n>         with --programs: runs per arm, the wall time is their median
                       (default: 3)
  --markdown           with --programs: the tables in markdown
  --hashes             instead of the table: per set and ranker, a SHA-256 over every
                       ranked list (names and scores to full precision), to show a
                       refactor left the rankings byte-identical
  --json               print the results as JSON instead of a table
  --help               this text
`;

function list<T extends string>(value: string | undefined, known: readonly T[], what: string): T[] {
  if (value === undefined) return [...known];
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!known.includes(item as T)) {
      throw new Error(`Unknown ${what} '${item}'. Known: ${known.join(', ')}.`);
    }
  }
  return items as T[];
}

async function runPrograms(values: {
  tasks?: string | undefined;
  repeat?: string | undefined;
  json?: boolean | undefined;
  markdown?: boolean | undefined;
}): Promise<void> {
  const repeat = values.repeat === undefined ? 3 : Number(values.repeat);
  if (!(Number.isInteger(repeat) && repeat > 0)) {
    throw new Error(`--repeat must be a positive integer, got '${values.repeat}'.`);
  }
  const results = await runProgramsAb({
    ...(values.tasks === undefined ? {} : { tasks: list(values.tasks, TASK_IDS, 'task') }),
    repeat,
    onTask: (result) => process.stderr.write(`  ${result.id}: done\n`),
  });
  process.stdout.write(
    values.json
      ? `${JSON.stringify(results, null, 2)}\n`
      : formatProgramsReport(results, values.markdown ? 'markdown' : 'text'),
  );
}

async function main(): Promise<void> {
  // `pnpm eval -- --sets x` hands the script a literal `--` first: skip it.
  const args = process.argv.slice(2);
  if (args[0] === '--') args.shift();
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      sets: { type: 'string' },
      rankers: { type: 'string' },
      'max-queries': { type: 'string' },
      json: { type: 'boolean', default: false },
      hashes: { type: 'boolean', default: false },
      ablations: { type: 'boolean', default: false },
      abstention: { type: 'boolean', default: false },
      learning: { type: 'boolean', default: false },
      programs: { type: 'boolean', default: false },
      tasks: { type: 'string' },
      repeat: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.programs) {
    await runPrograms(values);
    return;
  }
  if (values.hashes && (values.abstention || values.json)) {
    throw new Error('--hashes prints its own lines: leave out --abstention and --json.');
  }
  const sets = list<DataSetName>(values.sets, DATA_SETS, 'set');
  const catalog = values.ablations
    ? [RANKERS.find((entry) => entry.name === 'spec')!, ...ABLATIONS]
    : [...RANKERS, ...FLOOR_POINTS];
  const rankerNames = list(
    values.rankers ?? (values.ablations ? undefined : DEFAULT_RANKERS.join(',')),
    catalog.map((entry) => entry.name),
    'ranker',
  );
  const maxQueries =
    values['max-queries'] === undefined ? undefined : Number(values['max-queries']);
  if (maxQueries !== undefined && !(Number.isInteger(maxQueries) && maxQueries > 0)) {
    throw new Error(`--max-queries must be a positive integer, got '${values['max-queries']}'.`);
  }
  const dataDir = values.data ?? DEFAULT_DATA_DIR;

  const loaded: EvalSet[] = [];
  for (const set of sets) loaded.push(await loadSet(dataDir, set, maxQueries));

  if (values.learning) {
    const learning = [];
    for (const set of loaded) {
      learning.push(await evaluateLearning(set));
      process.stderr.write(`  learning on ${set.name}: done\n`);
    }
    process.stdout.write(
      values.json ? `${JSON.stringify(learning, null, 2)}\n` : formatLearningTable(learning),
    );
    return;
  }

  const results: SetResult[] = [];
  const abstention: AbstentionResult[] = [];
  const notes: string[] = [];
  for (const name of rankerNames) {
    const entry = catalog.find((candidate) => candidate.name === name)!;
    const startCreate = performance.now();
    const heapBefore = process.memoryUsage().heapUsed;
    const ranker = await entry.create(notes);
    const createMs = performance.now() - startCreate;
    if (createMs > 100) {
      const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      notes.push(`${name}: created in ${createMs.toFixed(0)} ms, +${heapMb.toFixed(0)} MB heap`);
    }
    for (const set of loaded) {
      if (values.abstention) abstention.push(await evaluateAbstention(ranker, name, set));
      else results.push(await evaluateRanker(ranker, name, set));
      process.stderr.write(`  ${name} on ${set.name}: done\n`);
    }
  }

  if (values.abstention) {
    process.stdout.write(
      values.json
        ? `${JSON.stringify(abstention, null, 2)}\n`
        : formatAbstentionTable(abstention, rankerNames),
    );
    return;
  }
  if (values.hashes) {
    for (const result of results) {
      process.stdout.write(`${result.set}\t${result.ranker}\t${result.rankingHash}\n`);
    }
    return;
  }
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify(
        results.map(({ perQuery: _perQuery, rankingHash: _rankingHash, ...rest }) => rest),
        null,
        2,
      )}\n`,
    );
    return;
  }
  process.stdout.write(formatTable(results, loaded, rankerNames));
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
