import { McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The JSON-RPC error code of a request the gateway answers because it is shutting
 * down: `-32000`, in the range JSON-RPC reserves for servers (the MCP SDK's
 * `ConnectionClosed`: the connection is going away). `data.reason` is `'shutting_down'`.
 */
export const SHUTTING_DOWN_ERROR_CODE = -32000;

/** What a drain did: `GatewayServer.close` returns it. */
export interface DrainReport {
  /** Calls that finished on their own within the grace period. */
  finished: number;
  /** Calls still running at the end of it, answered with the shutdown error. */
  interrupted: number;
}

/** Tracks the calls in flight so that a shutdown can answer each of them. */
export interface CallDrain {
  /** Whether a drain began: new calls are refused. */
  readonly draining: boolean;
  /**
   * Runs one call: refused with the shutdown error once draining; answered with it
   * when still running at the end of the grace period (its `signal` then aborts, which
   * cancels the upstream call).
   *
   * @param work - the call; `signal` aborts when the client cancels or the drain ends it
   * @param clientSignal - the client's cancellation
   * @returns what `work` returns
   * @throws `McpError` with {@link SHUTTING_DOWN_ERROR_CODE} when the gateway is
   * shutting down; what `work` throws
   */
  run<T>(work: (signal: AbortSignal) => Promise<T>, clientSignal: AbortSignal): Promise<T>;
  /**
   * Refuses new calls, waits up to `graceMs` for the calls in flight, then answers
   * the rest with the shutdown error.
   *
   * @param graceMs - how long calls in flight may still finish
   * @returns how many finished and how many were interrupted
   * @throws nothing
   */
  drain(graceMs: number): Promise<DrainReport>;
}

function shuttingDown(detail: string): McpError {
  return new McpError(SHUTTING_DOWN_ERROR_CODE, `The gateway is shutting down: ${detail}`, {
    reason: 'shutting_down',
  });
}

interface Running {
  interrupt(error: McpError): void;
  abort: AbortController;
}

/**
 * Creates the call tracker of a gateway (one for all its sessions).
 *
 * @returns a tracker with nothing in flight
 * @throws nothing
 */
export function createCallDrain(): CallDrain {
  const running = new Set<Running>();
  const idle = new Set<() => void>();
  let draining = false;
  let finished = 0;

  return {
    get draining() {
      return draining;
    },
    async run(work, clientSignal) {
      if (draining) {
        throw shuttingDown('it takes no new calls. Try again once it is back.');
      }
      const abort = new AbortController();
      const forward = () => abort.abort(clientSignal.reason);
      if (clientSignal.aborted) forward();
      else clientSignal.addEventListener('abort', forward, { once: true });
      let interrupt: (error: McpError) => void = () => {};
      const interrupted = new Promise<never>((_, reject) => {
        interrupt = reject;
      });
      const entry: Running = { interrupt, abort };
      running.add(entry);
      try {
        return await Promise.race([work(abort.signal), interrupted]);
      } finally {
        clientSignal.removeEventListener('abort', forward);
        running.delete(entry);
        if (draining) finished += 1;
        if (running.size === 0) for (const settle of idle) settle();
      }
    },
    async drain(graceMs) {
      draining = true;
      if (running.size > 0 && graceMs > 0) {
        let settle = () => {};
        const settled = new Promise<void>((resolve) => {
          settle = resolve;
        });
        idle.add(settle);
        const timer = setTimeout(settle, graceMs);
        await settled;
        clearTimeout(timer);
        idle.delete(settle);
      }
      const left = [...running];
      const seconds = Math.round(graceMs / 100) / 10;
      const error = shuttingDown(
        `the call did not finish within the ${seconds} s grace period and was cancelled. Try again once the gateway is back.`,
      );
      for (const entry of left) {
        // The answer first, then the upstream cancellation: the client gets this error,
        // not the cancelled call's result.
        entry.interrupt(error);
        entry.abort.abort(error);
      }
      return { finished, interrupted: left.length };
    },
  };
}
