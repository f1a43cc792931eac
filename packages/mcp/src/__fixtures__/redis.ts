import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real `redis-server` on a free loopback port, for the tests. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGKILL: as if it crashed); its append-only file stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  dispose(): Promise<void>;
  /** Runs a command with `redis-cli`, e.g. `['XLEN', 'tool-search:audit']`. */
  cli(args: string[]): string;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function which(binary: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `redis-server` (Debian's package; `.ci/run` installs it) with an append-only
 * file, so that a restart keeps the data as a production Redis with persistence does.
 *
 * @returns the running server
 * @throws when `redis-server` is not installed (never skipped: the test fails, saying so)
 */
export async function startRedis(): Promise<TestRedis> {
  if (!which('redis-server') || !which('redis-cli')) {
    throw new Error(
      'redis-server is not installed: apt-get install -y redis-server (bash .ci/run installs it before the tests).',
    );
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ts-redis-'));
  let child: ChildProcess | undefined;
  const cli = (args: string[]) =>
    execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).trim();
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        if (cli(['PING']) === 'PONG') return;
      } catch {
        // Not up yet.
      }
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    cli,
  };
}
