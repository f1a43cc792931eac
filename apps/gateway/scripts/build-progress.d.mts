import type { spawn } from 'node:child_process';

/** Options of {@link runWithProgress}. */
export interface ProgressOptions {
  command: string;
  args?: readonly string[];
  /** The first line, e.g. "Building the gateway". */
  label: string;
  /** Where the lines go. @defaultValue process.stderr */
  out?: { write(text: string): unknown };
  /** How often a "still building" line is written. @defaultValue 10_000 */
  everyMs?: number;
  /** Starts the command (for tests). @defaultValue node's `spawn` */
  spawnChild?: (...args: Parameters<typeof spawn>) => {
    once(event: 'exit', listener: (code: number | null) => void): unknown;
    once(event: 'error', listener: (error: Error) => void): unknown;
  };
  /** The clock (for tests). @defaultValue Date.now */
  now?: () => number;
}

export function runWithProgress(options: ProgressOptions): Promise<number>;
