// The learning store in memory: profiles of learned terms, decayed in steps by a clock,
// bounded per tool and in all. One store per process (or per gateway replica, when a
// shared store is not configured); it holds nothing but terms, counts and token hashes.

import { createLearningRules, type LearningRules } from './learning-rules.js';
import type {
  LearnedPair,
  LearnedTerms,
  LearningExport,
  LearningLimits,
  LearningStore,
} from './learning-types.js';
import { ProfileLearning } from './profile-learning.js';

/** Options of {@link createMemoryLearningStore}. */
export interface MemoryLearningStoreOptions {
  /** Bounds and decay that differ from {@link DEFAULT_LEARNING_LIMITS}. */
  limits?: Partial<LearningLimits>;
  /** The clock of the decay, in milliseconds. @defaultValue `Date.now` */
  now?: () => number;
}

class MemoryLearningStore implements LearningStore {
  private readonly profiles = new Map<string, ProfileLearning>();
  private entries = 0;

  constructor(
    private readonly rules: LearningRules,
    private readonly now: () => number,
  ) {}

  add(pair: LearnedPair): boolean {
    const terms = this.rules.termsOf(pair.terms);
    if (terms.length === 0 || typeof pair.tool !== 'string' || pair.tool === '') return false;
    const profile = this.profileOf(pair.profile, true)!;
    const token = pair.token === undefined ? undefined : this.rules.tokenKey(pair.token);
    return this.counted(profile, () => profile.add(pair.tool, terms, token, 1)) > 0;
  }

  learnedTerms(profile: string): ReadonlyMap<string, LearnedTerms> {
    return this.profileOf(profile, false)?.learnedTerms() ?? EMPTY;
  }

  export(profile?: string): LearningExport {
    const profiles: Record<string, Record<string, LearnedTerms>> = {};
    // By name, and only the profiles that hold terms, as every store exports them.
    for (const name of [...this.profiles.keys()].sort(byName)) {
      if (profile !== undefined && name !== profile) continue;
      const learned = this.decayed(this.profiles.get(name)!).learnedTerms();
      if (learned.size === 0) continue;
      const tools: Record<string, LearnedTerms> = {};
      for (const tool of [...learned.keys()].sort(byName)) tools[tool] = { ...learned.get(tool) };
      profiles[name] = tools;
    }
    return { format: 'tool-search-learning', version: 1, profiles };
  }

  import(data: unknown): void {
    const parsed = this.rules.parseExport(data);
    for (const [name, tools] of Object.entries(parsed.profiles)) {
      const profile = this.profileOf(name, true)!;
      for (const [tool, terms] of Object.entries(tools)) {
        for (const [term, count] of Object.entries(terms)) {
          this.counted(profile, () => profile.add(tool, [term], undefined, count));
        }
      }
    }
  }

  clear(profile?: string): void {
    if (profile === undefined) {
      this.profiles.clear();
      this.entries = 0;
      return;
    }
    const state = this.profiles.get(profile);
    if (state === undefined) return;
    this.entries -= state.entries;
    this.profiles.delete(profile);
  }

  private profileOf(name: string, create: boolean): ProfileLearning | undefined {
    let state = this.profiles.get(name);
    if (state === undefined) {
      if (!create) return undefined;
      state = new ProfileLearning(this.rules.stepOf(this.now()), this.rules);
      this.profiles.set(name, state);
    }
    return this.decayed(state);
  }

  // The profile's counts decayed to the current step (a no-op within a step).
  private decayed(state: ProfileLearning): ProfileLearning {
    const step = this.rules.stepOf(this.now());
    if (step > state.step) {
      const factor = this.rules.decayFactor(step - state.step);
      this.counted(state, () => state.decay(factor));
      state.step = step;
    }
    return state;
  }

  // Runs a change of one profile, keeping the store's count of terms and its bound.
  private counted<T>(state: ProfileLearning, change: () => T): T {
    const before = state.entries;
    const result = change();
    this.entries += state.entries - before;
    if (this.entries > this.rules.limits.maxEntries) this.prune();
    return result;
  }

  // Forgets the lightest terms of every profile until the store is well under its bound.
  private prune(): void {
    const counts: number[] = [];
    for (const state of this.profiles.values()) {
      for (const [, , count] of state.counts()) counts.push(count);
    }
    const threshold = this.rules.pruneThreshold(counts);
    this.entries = 0;
    for (const [name, state] of this.profiles) {
      state.dropAtMost(threshold);
      this.entries += state.entries;
      if (state.entries === 0) this.profiles.delete(name);
    }
  }
}

const EMPTY: ReadonlyMap<string, LearnedTerms> = new Map();

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Creates a learning store in memory: per profile, per tool, the analysed terms of the
 * queries that led to a successful call of it, with counts that halve every
 * `halfLifeMs` (in steps of `decayStepMs`), at most `maxTermsPerTool` per tool and
 * `maxEntries` in all (the lightest go first), each token giving at most `tokenCap` to
 * one tool and term. It keeps terms, counts and a hash of each token (for its cap),
 * nothing else. Hand it to {@link createSearchLearner}.
 *
 * @example
 * ```ts
 * const learner = createSearchLearner({ store: createMemoryLearningStore({ limits: { tokenCap: 2 } }) });
 * ```
 *
 * @param options.limits - bounds and decay, see {@link DEFAULT_LEARNING_LIMITS}
 * @param options.now - the clock of the decay @defaultValue `Date.now`
 * @returns the store
 * @throws {@link ToolSearchError} `invalid_argument` for a limit that is unknown or not a positive finite number
 */
export function createMemoryLearningStore(options: MemoryLearningStoreOptions = {}): LearningStore {
  return new MemoryLearningStore(createLearningRules(options.limits), options.now ?? Date.now);
}
