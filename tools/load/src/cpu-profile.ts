/** A node of a V8 `.cpuprofile` (what `node --cpu-prof` writes). */
export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
  children?: number[];
}

/** A V8 `.cpuprofile`: its call tree, and which node each sample hit after how long. */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  /** Microseconds since the sample before. */
  timeDeltas?: number[];
}

/** One function's share of a profile. */
export interface SelfTime {
  /** `name file:line`. */
  frame: string;
  /** Milliseconds sampled in the function itself (not its callees). */
  selfMs: number;
  /** Its share of all the sampled time, 0 to 1. */
  share: number;
}

/**
 * Where a frame lives, short: the part after the last `node_modules/` (a package and
 * its file) or after the repository's `packages/` and `apps/`, or node's own `node:` URL.
 */
function shortUrl(url: string): string {
  if (url === '') return '';
  const plain = url.replace(/^file:\/\//, '');
  const modules = plain.lastIndexOf('node_modules/');
  if (modules !== -1) return plain.slice(modules + 'node_modules/'.length);
  const ours = /\/((?:packages|apps|tools)\/.*)$/.exec(plain);
  return ours ? ours[1]! : plain;
}

/**
 * A frame's label: its function (or `(anonymous)`) and where it is.
 *
 * @param node - a profile node
 * @returns e.g. `runUpstreamCall mcp/dist/upstream/call.js:120`
 * @throws nothing
 */
export function frameLabel(node: CpuProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = shortUrl(url);
  const name = functionName === '' ? '(anonymous)' : functionName;
  return where === '' ? name : `${name} ${where}:${lineNumber + 1}`;
}

/** Milliseconds per node id, from the samples and their deltas (else the hit counts). */
function sampledMs(profile: CpuProfile): Map<number, number> {
  const byNode = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  if (samples !== undefined && timeDeltas !== undefined && samples.length === timeDeltas.length) {
    // A sample's delta is the time before it: charge it to the sample that ends it.
    for (let index = 0; index < samples.length; index += 1) {
      const delta = timeDeltas[index + 1] ?? 0;
      byNode.set(samples[index]!, (byNode.get(samples[index]!) ?? 0) + delta / 1000);
    }
    return byNode;
  }
  const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const perHit = hits === 0 ? 0 : (profile.endTime - profile.startTime) / 1000 / hits;
  for (const node of profile.nodes) byNode.set(node.id, (node.hitCount ?? 0) * perHit);
  return byNode;
}

/**
 * The functions that took the most time themselves, same-named frames of one place
 * summed; `(idle)` (the event loop waiting) and frames never sampled are left out.
 *
 * @param profile - a parsed `.cpuprofile`
 * @param top - how many
 * @returns the `top` functions, most time first
 * @throws nothing
 */
export function topSelfTimes(profile: CpuProfile, top = 25): SelfTime[] {
  const ms = sampledMs(profile);
  const byFrame = new Map<string, number>();
  for (const node of profile.nodes) {
    const label = frameLabel(node);
    if (label === '(idle)') continue;
    byFrame.set(label, (byFrame.get(label) ?? 0) + (ms.get(node.id) ?? 0));
  }
  const busy = [...byFrame.values()].reduce((sum, value) => sum + value, 0);
  return [...byFrame.entries()]
    .filter(([, selfMs]) => selfMs > 0)
    .map(([frame, selfMs]) => ({ frame, selfMs, share: busy === 0 ? 0 : selfMs / busy }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top);
}

/**
 * The profile as collapsed stacks (Brendan Gregg's format, what flame graph tools
 * read): one line per distinct stack, `root;…;leaf <microseconds>`; `(idle)` left out.
 *
 * @param profile - a parsed `.cpuprofile`
 * @returns the lines, heaviest first
 * @throws nothing
 */
export function collapsedStacks(profile: CpuProfile): string[] {
  const ms = sampledMs(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const stacks = new Map<string, number>();
  for (const node of profile.nodes) {
    const self = ms.get(node.id) ?? 0;
    if (self <= 0 || frameLabel(node) === '(idle)') continue;
    const path: string[] = [];
    for (let id: number | undefined = node.id; id !== undefined; id = parents.get(id)) {
      const label = frameLabel(byId.get(id)!);
      if (label !== '(root)') path.push(label.replaceAll(';', ','));
    }
    const key = path.reverse().join(';');
    stacks.set(key, (stacks.get(key) ?? 0) + self);
  }
  return [...stacks.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([stack, self]) => `${stack} ${Math.round(self * 1000)}`);
}
