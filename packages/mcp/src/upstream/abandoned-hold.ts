import type { RequestId } from '@modelcontextprotocol/client';
import type { UpstreamProgressEvent } from './pool-types.js';
import type { RequestWatch } from './request-watch.js';

/** What {@link holdAbandonedSlot} needs to know of the pool and the server. */
export interface AbandonedHold {
  /** The server's name, as its progress events carry it. */
  server: string;
  /** The watch of the client's requests, if it has one. */
  watch: RequestWatch | undefined;
  /** How long the server may take to stop the call after it was cancelled. */
  graceMs: number;
  /** The longest wait for a restart (a connect and a reconnect delay). */
  restartCapMs: number;
  /** Whether the client is still the server's live connection (and the pool open). */
  isLive(): boolean;
  /** Closes the client, which restarts the server. */
  restart(): void;
  /** Listens to the pool's progress events; returns the unsubscribe. */
  onProgress(listener: (event: UpstreamProgressEvent) => void): () => void;
}

/**
 * Holds a timed-out or cancelled call's queue slot until the upstream has stopped
 * running it: its late answer, or (after the grace) a restart of the server, whose end
 * is the server's next 'ready' or 'failed'.
 *
 * @param hold - the server and the pool, see {@link AbandonedHold}
 * @param id - the request id of the abandoned call, when it was sent
 * @returns when the slot may be freed
 * @throws nothing
 */
export async function holdAbandonedSlot(
  hold: AbandonedHold,
  id: RequestId | undefined,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'grace'>((resolve) => {
    timer = setTimeout(() => resolve('grace'), hold.graceMs);
    // A held slot must not keep a process alive that is done with the pool.
    timer.unref?.();
  });
  const end = await Promise.race([
    id === undefined || hold.watch === undefined ? grace : hold.watch.settled(id),
    grace,
  ]);
  clearTimeout(timer);
  if (end !== 'grace' || !hold.isLive()) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      unsubscribe();
      clearTimeout(cap);
      resolve();
    };
    const unsubscribe = hold.onProgress((event) => {
      if (event.server === hold.server && (event.kind === 'ready' || event.kind === 'failed')) {
        done();
      }
    });
    // Not forever: a restart that takes longer than a connect frees the slot anyway
    // (the old process is gone by then).
    const cap = setTimeout(done, hold.restartCapMs);
    cap.unref?.();
    hold.restart();
  });
}
