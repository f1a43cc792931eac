// The learning store in memory: profiles of learned terms, decayed in steps by a clock,
// bounded per tool and in all. One store per process (or per gateway replica, when a
// shared store is not configured); it holds nothing but terms, counts and token hashes.

import { ToolSearchError } from '../errors.js';
import { sha256Base64url } from '../sha256.js';
import { parseLearningExport } from './learning-export.js';
import {
  DEFAULT_LEARNING_LIMITS,
  type LearnedPair,
  type LearnedTerms,
  type LearningExport,
  type LearningLimits,
  type LearningStore,
} from './learning-types.js';
import { ProfileLearning } from './profile-learning.js';

/** Options of {@link createMemoryLearningStore}. */
export interface MemoryLearningStoreOptions {
  /** Bounds and decay that differ from {@link DEFAULT_LEARNING_LIMITS}. */
  limits?: Partial<LearningLimits>;
  /** The clock of the decay, in milliseconds. @defaultValue `Date.now` */
  now?: () => number;
}

/** Past the bound in all, the lightest share of the terms is forgotten at once. */
const PRUNE_SHARE = 0.1;

class MemoryLearningStore implements LearningStore {
  private readonly profiles = new Map<string, ProfileLearning>();
  private entries = 0;

  constructor(
    private readonly limits: LearningLimits,
    private readonly now: () => number,
  ) {}

  add(pair: LearnedPair): boolean {
    const terms = distinctTerms(pair.terms, this.limits.maxTermsPerQuery);
    if (terms.length === 0 || typeof pair.tool !== 'string' || pair.tool === '') return false;
    const profile = this.profileOf(pair.profile, true)!;
    const token = pair.token === undefined ? undefined : tokenHash(pair.token);
    return this.counted(profile, () => profile.add(pair.tool, terms, token, 1, this.limits)) > 0;
  }

  learnedTerms(profile: string): ReadonlyMap<string, LearnedTerms> {
    return this.profileOf(profile, false)?.learnedTerms() ?? EMPTY;
  }

  export(profile?: string): LearningExport {
    const profiles: Record<string, Record<string, LearnedTerms>> = {};
    for (const [name, state] of this.profiles) {
      if (profile !== undefined && name !== profile) continue;
      this.decayed(state);
      const tools: Record<string, LearnedTerms> = {};
      for (const [tool, terms] of state.learnedTerms()) tools[tool] = { ...terms };
      profiles[name] = tools;
    }
    return { format: 'tool-search-learning', version: 1, profiles };
  }

  import(data: unknown): void {
    const parsed = parseLearningExport(data);
    for (const [name, tools] of Object.entries(parsed.profiles)) {
      const profile = this.profileOf(name, true)!;
      for (const [tool, terms] of Object.entries(tools)) {
        for (const [term, count] of Object.entries(terms)) {
          this.counted(profile, () => profile.add(tool, [term], undefined, count, this.limits));
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
      state = new ProfileLearning(this.stepNow());
      this.profiles.set(name, state);
    }
    return this.decayed(state);
  }

  private stepNow(): number {
    return Math.floor(this.now() / this.limits.decayStepMs);
  }

  // The profile's counts decayed to the current step (a no-op within a step).
  private decayed(state: ProfileLearning): ProfileLearning {
    const step = this.stepNow();
    if (step > state.step) {
      const elapsed = (step - state.step) * this.limits.decayStepMs;
      this.counted(state, () => state.decay(0.5 ** (elapsed / this.limits.halfLifeMs)));
      state.step = step;
    }
    return state;
  }

  // Runs a change of one profile, keeping the store's count of terms and its bound.
  private counted<T>(state: ProfileLearning, change: () => T): T {
    const before = state.entries;
    const result = change();
    this.entries += state.entries - before;
    if (this.entries > this.limits.maxEntries) this.prune();
    return result;
  }

  // Forgets the lightest terms of every profile until the store is well under its bound.
  private prune(): void {
    const counts: number[] = [];
    for (const state of this.profiles.values()) {
      for (const [, , count] of state.counts()) counts.push(count);
    }
    counts.sort((a, b) => a - b);
    const drop = Math.max(1, Math.ceil(counts.length * PRUNE_SHARE));
    const threshold = counts[Math.min(drop, counts.length) - 1]!;
    this.entries = 0;
    for (const [name, state] of this.profiles) {
      state.dropAtMost(threshold);
      this.entries += state.entries;
      if (state.entries === 0) this.profiles.delete(name);
    }
  }
}

const EMPTY: ReadonlyMap<string, LearnedTerms> = new Map();

/**
 * The distinct terms of a query, its first `max` (strings of 1 to 64 characters).
 *
 * @internal
 */
export function distinctTerms(terms: readonly string[], max: number): string[] {
  const out: string[] = [];
  if (!Array.isArray(terms)) return out;
  for (const term of terms) {
    if (typeof term !== 'string' || term === '' || term.length > 64) continue;
    if (!out.includes(term)) out.push(term);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * What a store keeps of a token: a hash (16 characters of base64url), never the token.
 *
 * @internal
 */
export function tokenHash(token: string): string {
  return sha256Base64url(token).slice(0, 16);
}

/**
 * The limits with the defaults filled in.
 *
 * @throws {@link ToolSearchError} `invalid_argument` for a limit that is unknown or not a positive finite number
 * @internal
 */
export function checkLimits(limits: Partial<LearningLimits>): LearningLimits {
  const resolved = { ...DEFAULT_LEARNING_LIMITS };
  for (const [key, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_LEARNING_LIMITS)) {
      throw new ToolSearchError('invalid_argument', `Unknown learning limit '${key}'.`);
    }
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
      throw new ToolSearchError(
        'invalid_argument',
        `Learning limit '${key}' must be a positive finite number, got ${String(value)}.`,
      );
    }
    resolved[key as keyof LearningLimits] = value;
  }
  return resolved;
}

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
  return new MemoryLearningStore(checkLimits(options.limits ?? {}), options.now ?? Date.now);
}
