// A pool of sandbox workers, owned by one program tool: warm workers wait with QuickJS
// loaded; a run takes one and gives it back, or terminates it (a runaway program) and the
// pool starts a replacement.
import type { Worker } from 'node:worker_threads';
import { ToolSearchError } from '@tool-search/core';
import type { WorkerMessage } from './protocol.js';
import { createSlots } from './slots.js';

/** One worker, ready to run a program. */
export interface PooledWorker {
  readonly worker: Worker;
  /** Frees the worker's place among the busy ones. */
  free?: () => void;
}

/** The pool a program tool holds. */
export interface WorkerPool {
  /**
   * A ready worker: a warm one, or a new one once it has loaded QuickJS; waits while
   * `maxBusy` programs run.
   */
  acquire(): Promise<PooledWorker>;
  /** Gives a worker back after a run that ended normally. */
  release(worker: PooledWorker): void;
  /** Terminates a worker (a run that must stop now); the pool warms a replacement. */
  discard(worker: PooledWorker): void;
  /** Starts workers until `size` are warm; resolves when they are ready. */
  warm(): Promise<void>;
  /** Terminates every worker; later runs start new ones. */
  close(): Promise<void>;
}

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Workers kept warm. */
  size: number;
  /** V8 heap limit of each worker, besides the interpreter's own memory limit. */
  maxHeapMb: number;
  /** Programs running at once; more wait for a worker. */
  maxBusy: number;
}

// The compiled worker: from src/ (tests) and from dist/ alike, ../dist/ is the build.
// Made when a worker starts: in a bundle (a Worker), `import.meta.url` may be no URL.
const workerFile = (): URL => new URL('../dist/sandbox-worker.js', import.meta.url);

/**
 * Node's `Worker`, where the runtime has worker threads (Node; Deno and Bun mostly do),
 * reached without a static `node:` import so that the package loads on every runtime.
 */
function workerClass(): typeof Worker | undefined {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const threads = host.process?.getBuiltinModule?.('node:worker_threads') as
      | { Worker?: typeof Worker }
      | undefined;
    return threads?.Worker;
  } catch {
    return undefined;
  }
}

function startWorker(maxHeapMb: number): Promise<PooledWorker> {
  const WorkerThread = workerClass();
  if (!WorkerThread) {
    return Promise.reject(
      new ToolSearchError(
        'program_sandbox_failed',
        "The program sandbox is unavailable on this runtime: it runs programs in Node's worker threads (node:worker_threads), which this runtime does not have (Cloudflare Workers, edge functions, browsers). Run programs on Node, or call the tools directly.",
      ),
    );
  }
  const worker = new WorkerThread(workerFile(), {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
    stdout: true,
    stderr: true,
  });
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      if (message.type !== 'ready') return;
      worker.off('error', onError);
      worker.off('message', onMessage);
      worker.unref();
      resolve({ worker });
    };
    const onError = (error: unknown) => {
      worker.off('message', onMessage);
      reject(
        new ToolSearchError('program_sandbox_failed', 'The program sandbox did not start.', {
          cause: error,
        }),
      );
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
  });
}

/**
 * Creates a pool of sandbox workers. Nothing starts until the first `acquire` or `warm`.
 *
 * @param options - the pool's size and each worker's heap limit
 * @returns the pool
 * @throws nothing; `acquire` rejects with `ToolSearchError` `program_sandbox_failed` when a
 * worker cannot start, or the runtime has no worker threads (the package still loads)
 */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const idle: PooledWorker[] = [];
  const starting = new Set<Promise<PooledWorker>>();
  const all = new Set<PooledWorker>();
  let closed = false;
  const busy = createSlots(options.maxBusy);
  const done = (pooled: PooledWorker) => {
    pooled.free?.();
    pooled.free = undefined;
    pooled.worker.removeAllListeners('message');
  };

  const start = () => {
    const started = startWorker(options.maxHeapMb).then((pooled) => {
      all.add(pooled);
      pooled.worker.once('exit', () => {
        all.delete(pooled);
        const index = idle.indexOf(pooled);
        if (index !== -1) idle.splice(index, 1);
      });
      return pooled;
    });
    starting.add(started);
    void started.finally(() => starting.delete(started)).catch(() => undefined);
    return started;
  };

  const warming = new Set<Promise<void>>();
  const refill = () => {
    if (closed) return;
    while (idle.length + starting.size < options.size) {
      const warmed = start().then(
        (pooled) => (closed ? void pooled.worker.terminate() : void idle.push(pooled)),
        () => undefined,
      );
      warming.add(warmed);
      void warmed.finally(() => warming.delete(warmed));
    }
  };

  return {
    async acquire() {
      closed = false;
      const free = await busy.take();
      try {
        const ready = idle.pop() ?? (await start());
        ready.worker.ref();
        ready.free = free;
        refill();
        return ready;
      } catch (error) {
        free();
        throw error;
      }
    },
    release(pooled) {
      pooled.worker.unref();
      done(pooled);
      if (closed || !all.has(pooled) || idle.length >= options.size) {
        void pooled.worker.terminate();
        return;
      }
      idle.push(pooled);
    },
    discard(pooled) {
      done(pooled);
      void pooled.worker.terminate();
      refill();
    },
    async warm() {
      closed = false;
      refill();
      await Promise.allSettled([...warming]);
    },
    async close() {
      closed = true;
      idle.length = 0;
      await Promise.allSettled([...starting]);
      await Promise.all([...all].map((pooled) => pooled.worker.terminate()));
    },
  };
}
