import { ToolSearchError } from '@tool-search/core';
import type { GatewayStore, UpstreamPool } from '@tool-search/mcp';
import type { ToolReviewConfig } from '@tool-search/mcp/config';
import {
  HELD_BY_OPERATOR,
  readToolReview,
  reviewKey,
  writeToolReview,
} from '@tool-search/mcp/review';

export { HELD_BY_OPERATOR };

/** Where the accepted fingerprints live: the shared store with replicas, else the review file. */
export interface ConsoleReview {
  /** The accepted fingerprints. */
  read(): Promise<Map<string, string>>;
  /**
   * Accepts a tool's current definition (it is served once the pool reads the review
   * again, within a second or so).
   *
   * @throws `ToolSearchError` `invalid_argument` for a key the pool does not list
   */
  accept(key: string): Promise<void>;
  /** Holds a tool back until it is accepted again. */
  hold(key: string): Promise<void>;
}

/**
 * The console's side of the tool review.
 *
 * @param pool - the upstream pool (the current fingerprints)
 * @param review - the `review` section
 * @param store - the gateway's store (a shared one holds the fingerprints)
 * @returns the review
 * @throws nothing
 */
export function createConsoleReview(
  pool: Pick<UpstreamPool, 'fingerprints'>,
  review: ToolReviewConfig,
  store: GatewayStore,
): ConsoleReview {
  const read = () => (store.shared ? store.getFingerprints() : readToolReview(review.file));
  const write = (accepted: Map<string, string>) =>
    store.shared ? store.putFingerprints(accepted) : writeToolReview(review.file, accepted);
  const current = (key: string) => {
    const found = pool.fingerprints().find((item) => reviewKey(item.server, item.name) === key);
    if (found === undefined) {
      throw new ToolSearchError('invalid_argument', `No upstream lists the tool '${key}'.`, {
        data: { field: 'key' },
      });
    }
    return found.fingerprint;
  };
  // One change at a time: two clicks never read the same review and lose one write.
  let queue: Promise<unknown> = Promise.resolve();
  const change = (key: string, value: (key: string) => string) => {
    const next = queue.then(async () => {
      const entry = value(key);
      const accepted = await read();
      accepted.set(key, entry);
      await write(accepted);
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    read,
    accept: (key) => change(key, current),
    hold: (key) =>
      change(key, (checked) => {
        current(checked);
        return HELD_BY_OPERATOR;
      }),
  };
}
