// Learning from use of one modern request that carries a working-set handle: the recent
// searches come from the handle (not from this process), a search of the request joins
// them, and a successful call of a tool a search returned records the pair once, on
// whichever replica it lands (the store claims each search -> tool pair once). The
// credential's own learning session (this replica's window) is told of every search and
// call as before, so a client that never passes a handle learns as it did.

import type { LearningSession, SearchLearner } from '@tool-search/core';
import { LearningSessionState, learningOf } from '@tool-search/core/internal';
import { MAX_HANDLE_SEARCHES, newSearchId, type WorkingSetSearch } from './working-set.js';

/** What the learning of one request with a handle needs. */
export interface WorkingSetLearningOptions {
  learner: SearchLearner;
  profile: string | undefined;
  /** The credential's principal (its contribution is capped per token). */
  token: string | undefined;
  /** How many calls after a search a call still counts (`learning.window`). */
  window: number;
  /** The handle's searches (this object updates them in place). */
  searches: WorkingSetSearch[];
  /** The credential's learning session on this replica, told of every search and call. */
  shared: LearningSession | undefined;
  /** Claims a key once across replicas for a time; absent when the store cannot. */
  claimOnce: ((key: string, ttlMs: number) => Promise<boolean>) | undefined;
  /** How long a claim is kept (the handle's lifetime). */
  claimMs: number;
}

/**
 * The learning of one request with a working-set handle (an assembly's `learning` for
 * that request only).
 */
export class WorkingSetLearning extends LearningSessionState {
  private pendingWork: Promise<unknown> = Promise.resolve();
  private readonly shared: LearningSessionState | undefined;

  constructor(private readonly handle: WorkingSetLearningOptions) {
    super({
      learner: handle.learner,
      window: handle.window,
      ...(handle.profile === undefined ? {} : { profile: handle.profile }),
    });
    this.shared = learningOf({ learning: handle.shared });
  }

  /** The handle's searches after this request. */
  get heldSearches(): WorkingSetSearch[] {
    return this.handle.searches;
  }

  override noteSearch(query: string, hits: readonly string[]): void {
    this.shared?.noteSearch(query, hits);
    if (hits.length === 0) return;
    const terms = this.learner.analyze(query);
    if (terms.length === 0) return;
    const { searches } = this.handle;
    searches.push({ i: newSearchId(), t: [...terms], h: [...hits], c: 0 });
    while (searches.length > MAX_HANDLE_SEARCHES) searches.shift();
  }

  override noteCall(name: string, recordable: boolean): void {
    const { searches, window } = this.handle;
    let found: WorkingSetSearch | undefined;
    if (recordable) {
      for (let index = searches.length - 1; index >= 0 && found === undefined; index--) {
        if (searches[index]!.h.includes(name)) found = searches[index];
      }
    }
    if (found === undefined) {
      this.shared?.noteCall(name, recordable);
    } else {
      // A search leads to each of its tools once: in the handle, and across replicas.
      found.h = found.h.filter((hit) => hit !== name);
      this.pendingWork = Promise.all([this.pendingWork, this.recordOnce(found, name)]);
      this.shared?.noteCall(name, false);
    }
    for (const search of searches) search.c += 1;
    const kept = searches.filter((search) => search.c < window && search.h.length > 0);
    searches.splice(0, searches.length, ...kept);
  }

  override flush(): Promise<void> {
    return Promise.all([this.pendingWork, this.shared?.flush()]).then(() => undefined);
  }

  private async recordOnce(search: WorkingSetSearch, tool: string): Promise<void> {
    const { claimOnce, claimMs, learner, profile, token } = this.handle;
    try {
      if (
        claimOnce !== undefined &&
        !(await claimOnce(`working-set:${search.i}:${tool}`, claimMs))
      ) {
        return;
      }
      await learner.record({
        terms: search.t,
        tool,
        ...(profile === undefined ? {} : { profile }),
        ...(token === undefined || token === '' ? {} : { token }),
      });
    } catch {
      // Learning is best effort: a store that fails loses this pair, never the call.
    }
  }
}
