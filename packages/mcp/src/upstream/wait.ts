/**
 * A wait for the upstreams' first connect round, bounded per request; free once it is
 * over (or at once when there is nothing to wait for).
 *
 * @param ready - settles when the round is over (`pool.start()`); a rejection counts as over
 * @param waitMs - the longest one wait lasts @defaultValue 10000
 * @returns a function that each early request awaits
 * @throws nothing
 * @internal
 */
export function waitForUpstreams(
  ready: PromiseLike<unknown> | undefined,
  waitMs = 10_000,
): () => Promise<void> {
  if (ready === undefined) return async () => {};
  let settled = false;
  const done = Promise.resolve(ready).then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  return async () => {
    if (settled) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      done,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
  };
}
