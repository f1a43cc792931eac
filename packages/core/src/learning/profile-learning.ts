// One profile's learned terms in memory: per tool, per term, a decayed count and what
// each token contributed to it (by a hash of the token), with the per-tool bound. The
// views handed to catalogs are frozen and kept until their tool changes.

import type { LearningRules } from './learning-rules.js';
import type { LearnedTerms } from './learning-types.js';

/** The most distinct tokens whose contributions one term of one tool remembers. */
const MAX_TOKENS_PER_TERM = 64;

interface TermCount {
  count: number;
  /** Per token hash: what it contributed (decayed like the count). */
  tokens: Map<string, number> | undefined;
}

/** One tool's terms and its frozen view. */
class ToolTerms {
  readonly terms = new Map<string, TermCount>();
  /** Per token hash: what it gave this tool in all (decayed). */
  readonly tokens = new Map<string, number>();
  view: LearnedTerms | undefined;
}

/** The most tokens whose total one tool remembers (the oldest is forgotten first). */
const MAX_TOKENS_PER_TOOL = 1024;

/**
 * The learned terms of one profile.
 *
 * @internal
 */
export class ProfileLearning {
  private readonly tools = new Map<string, ToolTerms>();
  private snapshot: ReadonlyMap<string, LearnedTerms> | undefined;
  /** How many terms the profile holds, over its tools. */
  entries = 0;
  /** The decay step the counts are at. */
  step: number;

  constructor(
    step: number,
    private readonly rules: LearningRules,
  ) {
    this.step = step;
  }

  /**
   * Adds `amount` (at most what the token may still give) to each term of a tool.
   *
   * @returns how many terms were counted
   */
  add(tool: string, terms: readonly string[], token: string | undefined, amount: number): number {
    const { limits } = this.rules;
    let entry = this.tools.get(tool);
    let counted = 0;
    for (const term of terms) {
      let count = entry?.terms.get(term);
      let given = amount;
      if (token !== undefined) {
        given = this.rules.tokenShare(amount, {
          term: count?.tokens?.get(token) ?? 0,
          tool: entry?.tokens.get(token) ?? 0,
        });
        if (!(given > 0)) continue;
        if (count === undefined && (entry?.terms.size ?? 0) >= limits.maxTermsPerTool) {
          // A token's first word for a full tool only displaces a term as light as it.
          if (lightest(entry!) > given) continue;
        }
      }
      if (entry === undefined) {
        entry = new ToolTerms();
        this.tools.set(tool, entry);
      }
      if (count === undefined) {
        count = { count: 0, tokens: undefined };
        entry.terms.set(term, count);
        this.entries += 1;
      }
      count.count += given;
      if (token !== undefined) {
        entry.tokens.set(token, (entry.tokens.get(token) ?? 0) + given);
        if (entry.tokens.size > MAX_TOKENS_PER_TOOL) {
          entry.tokens.delete(entry.tokens.keys().next().value!);
        }
        count.tokens ??= new Map();
        if (count.tokens.has(token) || count.tokens.size < MAX_TOKENS_PER_TERM) {
          count.tokens.set(token, (count.tokens.get(token) ?? 0) + given);
        }
      }
      counted += 1;
      if (entry.terms.size > limits.maxTermsPerTool) this.dropLightest(entry, term);
    }
    if (counted > 0 && entry !== undefined) this.touch(entry);
    return counted;
  }

  /** Multiplies every count by `factor`, forgetting those that fall below the rules' `minCount`. */
  decay(factor: number): void {
    for (const [tool, entry] of this.tools) {
      for (const [term, count] of entry.terms) {
        count.count *= factor;
        if (count.count < this.rules.minCount) {
          entry.terms.delete(term);
          this.entries -= 1;
          continue;
        }
        for (const [token, given] of count.tokens ?? []) count.tokens!.set(token, given * factor);
      }
      for (const [token, given] of entry.tokens) entry.tokens.set(token, given * factor);
      if (entry.terms.size === 0) this.tools.delete(tool);
      this.touch(entry);
    }
  }

  /** Every count of the profile, for an export or a prune. */
  *counts(): Generator<[tool: string, term: string, count: number]> {
    for (const [tool, entry] of this.tools) {
      for (const [term, count] of entry.terms) yield [tool, term, count.count];
    }
  }

  /** Forgets the terms whose count is at most `threshold`. */
  dropAtMost(threshold: number): void {
    for (const [tool, entry] of this.tools) {
      for (const [term, count] of entry.terms) {
        if (count.count > threshold) continue;
        entry.terms.delete(term);
        this.entries -= 1;
      }
      if (entry.terms.size === 0) this.tools.delete(tool);
      this.touch(entry);
    }
  }

  /** The profile's learned terms: the same map until something changes. */
  learnedTerms(): ReadonlyMap<string, LearnedTerms> {
    if (this.snapshot !== undefined) return this.snapshot;
    const map = new Map<string, LearnedTerms>();
    for (const [tool, entry] of this.tools) {
      entry.view ??= this.rules.view([...entry.terms].map(([term, count]) => [term, count.count]));
      map.set(tool, entry.view);
    }
    this.snapshot = map;
    return map;
  }

  private touch(entry: ToolTerms): void {
    entry.view = undefined;
    this.snapshot = undefined;
  }

  // The lightest term other than the one just counted (ties: the first in order).
  private dropLightest(entry: ToolTerms, keep: string): void {
    let lightestTerm: string | undefined;
    let lightestCount = Number.POSITIVE_INFINITY;
    for (const [term, count] of entry.terms) {
      if (term !== keep && count.count < lightestCount) {
        lightestTerm = term;
        lightestCount = count.count;
      }
    }
    if (lightestTerm === undefined) return;
    entry.terms.delete(lightestTerm);
    this.entries -= 1;
  }
}

function lightest(entry: ToolTerms): number {
  let least = Number.POSITIVE_INFINITY;
  for (const count of entry.terms.values()) least = Math.min(least, count.count);
  return least;
}
