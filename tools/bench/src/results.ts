import type { RealToolsSource } from './catalog-data.js';
import type { Stats } from './measure.js';

/** What one system (one of our rankers, or a peer) measured at one size. */
export interface SystemResult {
  /** `bm25:default`, `bm25:spec`, `minisearch`, ... */
  id: string;
  kind: 'ours' | 'peer';
  /** How it was configured. */
  setup: string;
  /** Why it was not measured, when it was not. */
  skipped?: string;
  /** Cold build over tool objects never seen before, plus the first search. */
  coldBuild?: Stats;
  /** One-time setup: a build over 3 tools first in the process (lazy module and model loads). */
  oneTime?: { ms: number; bytes: number };
  /** The first full-size build of the process (JIT-cold, after the setup), one sample. */
  firstBuild?: number;
  /** A new assembly over the same tool objects, plus the first search (ours only). */
  assemblyUnchanged?: Stats;
  /** A new assembly where 1% of the tools are new objects, plus the first search (ours only). */
  assemblyChanged?: Stats;
  /** The same with 0.1% of the tools new objects (ours only). */
  assemblyChangedTenth?: Stats;
  /** One top-5 query on a built index (ours: `catalog.search`). */
  query?: Stats;
  /** One top-5 query on the ranker's index directly, without the catalog (ours only). */
  queryRankerIndex?: Stats;
  /** Bytes retained by a built index with its first search (heap + array buffers). */
  retainedBytes?: number;
  /**
   * Bytes retained after six assemblies of one session (the first, then five with 1%
   * more changed each), holding the last: what per-tool memos and index caches keep
   * (ours only).
   */
  retainedBytesAfterAssemblies?: number;
}

/** The token estimate of the whole list. */
export interface TokenResult {
  /** `estimateToolTokens(tools)` over tool objects never seen before. */
  estimateCold: Stats;
  /** `estimateToolTokens(tools)` again over the same objects (memoized per tool). */
  estimateWarm: Stats;
  /** The estimate (chars / 4 of compact model-facing JSON). */
  estimateTotal: number;
  /** gpt-tokenizer's `countTokens` over the same JSON, for reference. */
  gptTokenizer?: { encoding: string; loadMs: number; count: Stats; total: number };
}

export interface Environment {
  node: string;
  platform: string;
  cpu: string;
  cores: number;
  memoryGb: number;
  gcExposed: boolean;
  /** The 1-minute load average when the size started and when it ended (other work skews times). */
  loadAverage: [number, number];
}

/** Everything measured for one catalog size, in one child process. */
export interface SizeResult {
  size: number;
  realCount: number;
  syntheticCount: number;
  source: RealToolsSource;
  seed: number;
  assembly: { id: string; description: string };
  /** The idle time after the collection before each timed build and assembly (`--settle-ms`). */
  settle: { option: number | 'auto'; ms: number };
  queries: number;
  environment: Environment;
  systems: SystemResult[];
  tokens: TokenResult;
  elapsedMs: number;
}
