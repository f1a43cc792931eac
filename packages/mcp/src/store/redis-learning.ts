// Learning from use in Redis: core's LearningStore on core's learning rules
// (`createLearningRules`: per profile, per token caps, terms per tool, terms in all, decay
// in steps), shared by every replica. Changes run as one Lua script each
// (redis-learning-scripts.ts), on the numbers the rules give; reads decay on the fly, so a
// replica that only reads sees what one that writes would.

import {
  createLearningRules,
  type LearnedPair,
  type LearnedTerms,
  type LearningExport,
  type LearningRules,
  type LearningStore,
} from '@tool-search/core';
import type { RedisConnections } from './redis-connection.js';
import { LEARN_ADD_SCRIPT, LEARN_CLEAR_SCRIPT } from './redis-learning-scripts.js';
import type { LearningStoreOptions } from './types.js';

/** One tool's terms as last read, and the view handed out for them. */
interface ToolRead {
  version: string;
  counts: Array<[string, number]>;
  factor: number;
  view: LearnedTerms;
}

/** A profile's learned terms as last read: the same map until the profile or the step changes. */
interface ProfileRead {
  version: string | null;
  step: number;
  tools: Map<string, ToolRead>;
  map: ReadonlyMap<string, LearnedTerms>;
}

class RedisLearningStore implements LearningStore {
  // Per profile, what this replica read last: views stay the same objects until they change.
  private readonly reads = new Map<string, ProfileRead>();
  private readonly base: string;
  private readonly perStep: number;

  constructor(
    private readonly redis: RedisConnections,
    private readonly rules: LearningRules,
    private readonly now: () => number,
  ) {
    this.base = redis.keys.learning;
    this.perStep = rules.decayFactor(1);
  }

  async add(pair: LearnedPair): Promise<boolean> {
    const terms = this.rules.termsOf(pair.terms);
    if (terms.length === 0 || typeof pair.tool !== 'string' || pair.tool === '') return false;
    const token = pair.token === undefined ? '' : this.rules.tokenKey(pair.token);
    const amounts = terms.flatMap((term) => [term, 1]);
    return (await this.change(pair.profile, pair.tool, token, amounts)) > 0;
  }

  async learnedTerms(profile: string): Promise<ReadonlyMap<string, LearnedTerms>> {
    const p = encodeProfile(profile);
    const [version, stepText] = await this.redis.call<(string | null)[]>(
      'reading the learned terms',
      ['HMGET', `${this.base}m:${p}`, 'version', 'step'],
    );
    const step = this.stepNow();
    const last = this.reads.get(profile);
    if (last !== undefined && last.version === version && last.step === step) return last.map;
    const flat = await this.redis.call<string[]>('reading the learned terms', [
      'HGETALL',
      `${this.base}i:${p}`,
    ]);
    const stored = stepText === null || stepText === undefined ? step : Number(stepText);
    const factor = this.rules.decayFactor(Math.max(0, step - stored));
    const tools = new Map<string, ToolRead>();
    const reads: Promise<void>[] = [];
    for (let index = 0; index + 1 < flat.length; index += 2) {
      const tool = String(flat[index]);
      const toolVersion = String(flat[index + 1]);
      const known = last?.tools.get(tool);
      if (known !== undefined && known.version === toolVersion) {
        tools.set(
          tool,
          known.factor === factor ? known : this.viewed(toolVersion, known.counts, factor),
        );
        continue;
      }
      reads.push(
        this.redis
          .call<string[]>('reading the learned terms', ['HGETALL', `${this.base}t:${p}:${tool}`])
          .then((terms) => {
            tools.set(tool, this.viewed(toolVersion, pairsOf(terms), factor));
          }),
      );
    }
    await Promise.all(reads);
    const map = new Map<string, LearnedTerms>();
    for (const [tool, read] of [...tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (Object.keys(read.view).length > 0) map.set(tool, read.view);
    }
    this.reads.set(profile, { version: version ?? null, step, tools, map });
    return map;
  }

  async export(profile?: string): Promise<LearningExport> {
    const names =
      profile === undefined
        ? (
            await this.redis.call<string[]>('reading the learned profiles', [
              'SMEMBERS',
              `${this.base}profiles`,
            ])
          ).map((p) => decodeURIComponent(String(p)))
        : [profile];
    const profiles: LearningExport['profiles'] = {};
    for (const name of names.sort()) {
      const learned = await this.learnedTerms(name);
      if (learned.size === 0) continue;
      const tools: Record<string, Record<string, number>> = {};
      for (const [tool, terms] of learned) tools[tool] = { ...terms };
      profiles[name] = tools;
    }
    return { format: 'tool-search-learning', version: 1, profiles };
  }

  async import(data: unknown): Promise<void> {
    const parsed = this.rules.parseExport(data);
    for (const [profile, tools] of Object.entries(parsed.profiles)) {
      for (const [tool, terms] of Object.entries(tools)) {
        await this.change(profile, tool, '', Object.entries(terms).flat());
      }
    }
  }

  async clear(profile?: string): Promise<void> {
    await this.redis.call('forgetting the learned terms', [
      'EVAL',
      LEARN_CLEAR_SCRIPT,
      0,
      this.base,
      profile === undefined ? '' : encodeProfile(profile),
    ]);
  }

  private stepNow(): number {
    return this.rules.stepOf(this.now());
  }

  private viewed(version: string, counts: Array<[string, number]>, factor: number): ToolRead {
    const decayed: Array<[string, number]> = [];
    for (const [term, count] of counts) {
      const value = count * factor;
      if (Number.isFinite(value) && value >= this.rules.minCount) decayed.push([term, value]);
    }
    return { version, counts, factor, view: this.rules.view(decayed) };
  }

  private async change(
    profile: string,
    tool: string,
    token: string,
    amounts: (string | number)[],
  ): Promise<number> {
    const { limits, minCount, pruneShare } = this.rules;
    const counted = await this.redis.call('recording learned terms', [
      'EVAL',
      LEARN_ADD_SCRIPT,
      0,
      this.base,
      encodeProfile(profile),
      tool,
      this.stepNow(),
      this.perStep,
      minCount,
      token,
      limits.tokenCap,
      limits.tokenToolCap,
      limits.maxTermsPerTool,
      limits.maxEntries,
      pruneShare,
      ...amounts,
    ]);
    return Number(counted);
  }
}

/** A profile as a part of a key: no profile reaches into another's keys. */
function encodeProfile(profile: string): string {
  return encodeURIComponent(profile);
}

function pairsOf(flat: readonly unknown[]): Array<[string, number]> {
  const pairs: Array<[string, number]> = [];
  for (let index = 0; index + 1 < flat.length; index += 2) {
    pairs.push([String(flat[index]), Number(flat[index + 1])]);
  }
  return pairs;
}

/**
 * The Redis {@link LearningStore} of a Redis gateway store: keys under
 * `<prefix>learning:`, changed by one Lua script each, on core's `createLearningRules`.
 *
 * @param redis - the store's connections
 * @param options - bounds and decay, as core's memory store takes them
 * @returns the learning store
 * @throws {@link ToolSearchError} `invalid_argument` for a limit that is unknown or not a positive finite number
 */
export function createRedisLearningStore(
  redis: RedisConnections,
  options: LearningStoreOptions = {},
): LearningStore {
  return new RedisLearningStore(
    redis,
    createLearningRules(options.limits),
    options.now ?? Date.now,
  );
}
