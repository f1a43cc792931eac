import { type ChildProcess, spawn } from 'node:child_process';
import { CLI, FIXTURE_ENV } from './paths.js';

/** One `serve --transport http --store …` process. */
export interface TestReplica {
  readonly port: number;
  readonly child: ChildProcess;
  stderr(): string;
  /** SIGKILL: the replica is lost, as a crashed machine. */
  kill(): Promise<void>;
}

/**
 * Starts the built CLI as a replica on a fixed port, and waits until `/readyz` says
 * it is ready (its store answers, its upstreams settled).
 *
 * @param config - the gateway config file
 * @param port - its port on 127.0.0.1
 * @param extra - more flags (`--store`, `--token`, `--allow-host`, …)
 * @returns the running replica
 * @throws when it exits or does not get ready
 */
export async function startReplica(
  config: string,
  port: number,
  extra: readonly string[],
): Promise<TestReplica> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--config', config, '--transport', 'http', '--port', String(port), ...extra],
    { env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the replica exited: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the replica did not get ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    child,
    stderr: () => stderr,
    async kill() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
