// The partial top-k of a search: the best slots kept by insertion, never a sort of
// every touched slot.

/**
 * The `limit` best of the first `count` candidate slots, best first (scores above 0
 * only); equal scores keep catalog order.
 *
 * @param scores - per slot, its score
 * @param position - per slot, its tool's catalog position
 * @throws nothing
 * @internal
 */
export function topK(
  scores: Float64Array,
  position: Uint32Array,
  candidates: Uint32Array,
  count: number,
  limit: number,
): number[] {
  const best: number[] = [];
  // The last kept slot's score once `limit` are kept (0 before: scores must be above it).
  let threshold = 0;
  for (let i = 0; i < count; i++) {
    const slot = candidates[i]!;
    const score = scores[slot]!;
    if (!(score > 0) || score < threshold) continue;
    if (best.length === limit) {
      const last = best[limit - 1]!;
      if (score === threshold && position[slot]! > position[last]!) continue;
      best.pop();
    }
    let at = best.length;
    while (at > 0) {
      const previous = best[at - 1]!;
      const previousScore = scores[previous]!;
      if (
        previousScore > score ||
        (previousScore === score && position[previous]! < position[slot]!)
      )
        break;
      at--;
    }
    best.splice(at, 0, slot);
    if (best.length === limit) threshold = scores[best[limit - 1]!]!;
  }
  return best;
}
