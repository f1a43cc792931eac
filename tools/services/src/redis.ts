import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { requireProgram } from './require-program.js';

/** A real `redis-server` on a free loopback port. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Kills it (SIGKILL, as a crash); its data folder stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  /** Stops it for good and removes its data folder. */
  dispose(): Promise<void>;
  /** Runs a command with `redis-cli`, e.g. `['XLEN', 'tool-search:audit']`; returns its trimmed output. */
  cli(args: readonly string[]): string;
}

/** How {@link startRedis} runs the server. */
export interface StartRedisOptions {
  /**
   * Keep an append-only file fsynced on every write, so that `stop()` then `start()`
   * keeps the data as a production Redis with persistence does. A load run turns it
   * off: it measures the gateway, not the disk.
   *
   * @defaultValue true
   */
  readonly appendOnly?: boolean;
}

async function poll(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts Debian's `redis-server` (`.ci/run` installs it) on a free port of 127.0.0.1,
 * with its data in a temporary folder, and waits until it answers `PING`.
 *
 * @param options - persistence; see {@link StartRedisOptions}
 * @returns the running server
 * @throws an `Error` when `redis-server` or `redis-cli` is not installed (the install
 *   message: never a skip), or when the server does not answer within 20 s
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis> {
  const server = requireProgram(
    'redis-server',
    ['redis-server', '/usr/bin/redis-server'],
    'redis-server',
  );
  const client = requireProgram('redis-cli', ['redis-cli', '/usr/bin/redis-cli'], 'redis-server');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-redis-'));
  const persistence =
    options.appendOnly === false ? [] : ['--appendonly', 'yes', '--appendfsync', 'always'];
  let child: ChildProcess | undefined;
  const cli = (args: readonly string[]) =>
    execFileSync(client, ['-p', String(port), ...args], { encoding: 'utf8' }).trim();
  const ping = () => {
    try {
      return cli(['PING']) === 'PONG';
    } catch {
      return false;
    }
  };
  const start = async () => {
    child = spawn(
      server,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence],
      { stdio: 'ignore' },
    );
    await poll('redis-server', ping);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    cli,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
