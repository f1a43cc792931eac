import { execFileSync } from 'node:child_process';

/** The pids of a process's children (Linux and macOS `ps`); empty where `ps` is missing. */
export function childPids(pid: number): number[] {
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter(([, parent]) => parent === pid)
      .map(([child]) => child as number);
  } catch {
    return [];
  }
}

/** Whether a process is still alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until every pid has exited, or fails after `timeoutMs`. */
export async function waitForExit(pids: readonly number[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) {
      throw new Error(`still running after ${timeoutMs} ms: ${pids.filter(isAlive).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
