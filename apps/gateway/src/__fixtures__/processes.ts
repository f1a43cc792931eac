import type { ChildProcess } from 'node:child_process';
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

/**
 * The URL a `serve --transport http` child prints (`listening on <url>` on stderr);
 * rejects with its stderr when it exits first.
 */
export function listeningUrl(child: ChildProcess): Promise<URL> {
  return new Promise<URL>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

/** Stops a child that still runs (SIGTERM) and waits for it and its children to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const children = childPids(child.pid);
  child.kill('SIGTERM');
  await waitForExit([child.pid, ...children]);
}
