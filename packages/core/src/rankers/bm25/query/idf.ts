/**
 * The BM25 idf of a term (or a proximity pair) held by `df` of `n` tools.
 *
 * @throws nothing
 * @internal
 */
export function idfOf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}
