// The retained-heap measurements of the worker: run first, before any timing.
import { createCatalog, type ToolCatalog, type ToolDefinition } from '@tool-search/core';
import type { AssemblyPath } from './assembly.js';
import { freshCopies, withChangedFraction } from './catalog-data.js';
import { now, retainedBytes, since } from './measure.js';
import type { Peer } from './peers.js';
import { createRandom } from './random.js';
import type { SystemResult } from './results.js';
import { CHANGED_FRACTION, LIMIT, log, type OurSystem, queryAt, settle } from './worker-common.js';

const SETUP_TOOLS = 3;
const ASSEMBLIES_HELD = 5;

/**
 * Heap first, before any timing: one-time setup (lazy loads) on 3 tools, then the
 * first full build, each with a new ranker so that no cache of an earlier build
 * hides what a build keeps.
 */
export async function measureOurHeap(
  system: OurSystem,
  base: readonly ToolDefinition[],
  assembly: AssemblyPath,
  seed: number,
  result: SystemResult,
): Promise<void> {
  log(`[${base.length}] ${system.id}: retained heap`);
  const small = freshCopies(base.slice(0, SETUP_TOOLS));
  let ms = 0;
  const setup = await retainedBytes(async () => {
    const start = now();
    const catalog = createCatalog(small, { ranker: system.freshRanker() });
    await catalog.search(queryAt(0), { limit: LIMIT });
    ms = since(start);
    return catalog;
  });
  result.oneTime = { ms, bytes: setup.bytes };

  const copies = freshCopies(base);
  const heap = await retainedBytes(async () => {
    const start = now();
    const catalog = createCatalog(copies, { ranker: system.freshRanker() });
    await catalog.search(queryAt(0), { limit: LIMIT });
    ms = since(start);
    return catalog;
  });
  result.firstBuild = ms;
  result.retainedBytes = heap.bytes;

  // Six assemblies of one session, 1% more of its tools replaced each time; the new
  // tool objects themselves are measured apart and subtracted (they are the user's).
  const session = freshCopies(base);
  const changes = () => {
    const random = createRandom(seed + 11);
    const lists = [session];
    for (let i = 0; i < ASSEMBLIES_HELD; i++) {
      lists.push(withChangedFraction(lists[i]!, CHANGED_FRACTION, random, i));
    }
    return lists;
  };
  const toolBytes = (await retainedBytes(async () => changes()[ASSEMBLIES_HELD]!)).bytes;
  const ranker = system.freshRanker();
  const assembled = await retainedBytes(async () => {
    const lists = changes();
    let catalog: ToolCatalog | undefined;
    for (let i = 0; i < lists.length; i++) {
      catalog = await assembly.assemble(lists[i]!, ranker);
      await catalog.search(queryAt(i), { limit: LIMIT });
      lists[i] = [];
    }
    return catalog;
  });
  result.retainedBytesAfterAssemblies = assembled.bytes - toolBytes;
}

/** The peer's one-time setup and first build, as {@link measureOurHeap} measures ours. */
export async function measurePeerHeap(
  peer: Peer,
  base: readonly ToolDefinition[],
  result: SystemResult,
): Promise<void> {
  log(`[${base.length}] ${peer.id}: retained heap`);
  const small = freshCopies(base.slice(0, SETUP_TOOLS));
  let ms = 0;
  const setup = await retainedBytes(async () => {
    const start = now();
    const index = await peer.build(small);
    await settle(index.search(queryAt(0), LIMIT));
    ms = since(start);
    return index;
  });
  result.oneTime = { ms, bytes: setup.bytes };
  const copies = freshCopies(base);
  const heap = await retainedBytes(async () => {
    const start = now();
    const index = await peer.build(copies);
    await settle(index.search(queryAt(0), LIMIT));
    ms = since(start);
    return index;
  });
  result.firstBuild = ms;
  result.retainedBytes = heap.bytes;
}
