// The group pass: the sibling lift. The best few groups (toolsets, or `server__` name
// prefixes) among the touched slots lift every member by a share of the group's best
// score.

import type { ToolGroups } from '../tool-groups.js';
import type { SearchScratch } from './search-scratch.js';
import { topK } from './top-k.js';

/**
 * Which way a search with a group boost went (see {@link GroupPass.fromLeaders}).
 *
 * @internal
 */
export type GroupBoostWay = 'settled' | 'unsettled' | 'rechecked';

/**
 * What the group pass reads of an index.
 *
 * @internal
 */
export interface GroupedIndex extends ToolGroups {
  /** Per slot: its tool's catalog position. */
  readonly position: Uint32Array;
}

/**
 * The group pass of one index's searches.
 *
 * @internal
 */
export class GroupPass {
  /** Per group: its best score in the current search (0 outside one). */
  private best: Float64Array | undefined;

  /**
   * @param boost - the share of a group's best score its members gain
   * @param top - how many groups are lifted
   * @param leaderCount - the leaders that settle the lift (see {@link GroupPass.fromLeaders})
   * @param onWay - told which way each {@link GroupPass.fromLeaders} went
   * @throws nothing
   */
  constructor(
    private readonly index: GroupedIndex,
    private readonly boost: number,
    private readonly top: number,
    private readonly leaderCount: number,
    private readonly onWay?: (way: GroupBoostWay) => void,
  ) {}

  /**
   * The lift over every touched slot: each touched group's best, then the lift.
   *
   * @param limit - the results wanted
   * @throws nothing
   */
  boostAll(scratch: SearchScratch, limit: number): void {
    const { groupOf } = this.index;
    this.best ??= new Float64Array(this.index.groupMembers.length);
    const best = this.best;
    const { touched, scores } = scratch;
    const groups: number[] = [];
    const count = scratch.touchedCount;
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      const group = groupOf[slot]!;
      if (group < 0) continue;
      if (best[group] === 0) groups.push(group);
      if (scores[slot]! > best[group]!) best[group] = scores[slot]!;
    }
    this.lift(scratch, this.bestGroups(groups, best), best, limit);
    for (const group of groups) best[group] = 0;
  }

  /**
   * The results of the lift from the best slots before it (the leaders), without a pass
   * over every touched slot for the groups and another for the results: the groups of
   * the leaders are every group whose best score is above the last leader's, and the
   * slots the lift does not touch keep their scores.
   *
   * @param k - the results wanted
   * @returns the best `k` slots, or undefined when the leaders do not settle the answer
   *   (too few groups among them, or ties with the last leader's score) or there are no
   *   leaders to ask (a leader count of 0): then take {@link GroupPass.boostAll}
   * @throws nothing
   */
  fromLeaders(scratch: SearchScratch, k: number): number[] | undefined {
    if (this.leaderCount === 0) return undefined;
    const { groupOf, groupMembers, position } = this.index;
    const { scores, touched, touchedCount } = scratch;
    const leaderCount = this.leaderCount;
    const leaders = topK(scores, position, touched, touchedCount, leaderCount);
    // Fewer leaders than asked: every slot with a score is a leader.
    const floorScore = leaders.length < leaderCount ? 0 : scores[leaders[leaderCount - 1]!]!;
    this.best ??= new Float64Array(groupMembers.length);
    const best = this.best;
    const groups: number[] = [];
    for (const slot of leaders) {
      const group = groupOf[slot]!;
      // Leaders come best first: a group's first leader holds its best score.
      if (group < 0 || best[group] !== 0) continue;
      best[group] = scores[slot]!;
      groups.push(group);
    }
    const top = this.bestGroups(groups, best);
    // Settled when the groups lifted are every group above the last leader's score.
    const settled =
      top.length === this.top
        ? best[top[top.length - 1]!]! > floorScore
        : leaders.length < leaderCount;
    if (!settled) {
      for (const group of groups) best[group] = 0;
      this.onWay?.('unsettled');
      return undefined;
    }
    const candidates: number[] = [...leaders];
    const listed = new Set(leaders);
    this.lift(scratch, top, best, k, (slot) => {
      if (!listed.has(slot)) {
        listed.add(slot);
        candidates.push(slot);
      }
    });
    for (const group of groups) best[group] = 0;
    const results = topK(scores, position, Uint32Array.from(candidates), candidates.length, k);
    // A slot outside the candidates kept a score of at most the last leader's.
    if (
      (results.length === k && scores[results[k - 1]!]! > floorScore) ||
      leaders.length < leaderCount
    ) {
      this.onWay?.('settled');
      return results;
    }
    this.onWay?.('rechecked');
    return topK(scores, position, scratch.touched, scratch.touchedCount, k);
  }

  /** Whether group `a` ranks before group `b`: best score, then its first slot's position. */
  private before(a: number, b: number, best: Float64Array): boolean {
    const difference = best[b]! - best[a]!;
    if (difference !== 0) return difference < 0;
    const { position, groupMembers } = this.index;
    return position[groupMembers[a]![0]!]! < position[groupMembers[b]![0]!]!;
  }

  /** The best `top` of `groups` (each with its best score in `best`), in order. */
  private bestGroups(groups: readonly number[], best: Float64Array): number[] {
    // Kept by insertion: at 100,000 tools a sort of every touched group would cost
    // more than the rest of a search (see the benchmarks guide).
    const top: number[] = [];
    const want = Math.min(groups.length, this.top);
    for (let g = 0; g < groups.length && want > 0; g++) {
      const group = groups[g]!;
      if (top.length === want && !this.before(group, top[want - 1]!, best)) continue;
      let at = top.length === want ? want - 1 : top.length;
      while (at > 0 && this.before(group, top[at - 1]!, best)) at--;
      top.splice(at, 0, group);
      if (top.length > want) top.pop();
    }
    return top;
  }

  /**
   * Each lifted group's members: the touched ones gain a share of the group's best
   * score, and the first `limit` untouched ones get it as their score (untouched members
   * all tie, in catalog order, so the others cannot reach the results). A member is in
   * one group only. `visit` is told every slot whose score the lift set or raised.
   */
  private lift(
    scratch: SearchScratch,
    top: readonly number[],
    best: Float64Array,
    limit: number,
    visit?: (slot: number) => void,
  ): void {
    const { seen, scores } = scratch;
    for (const group of top) {
      const value = this.boost * best[group]!;
      let added = 0;
      for (const slot of this.index.groupMembers[group]!) {
        if (seen[slot] === 1) {
          if (value > 0) scores[slot]! += value;
          visit?.(slot);
          continue;
        }
        if (added === limit) continue;
        scratch.touch(slot);
        scores[slot] = value;
        visit?.(slot);
        added++;
      }
    }
  }
}
