import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, FIXTURE_ENV } from './paths.js';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** The path of an installed program, or a clear error: these tests never skip. */
export function requireProgram(name: string, paths: readonly string[], apt: string): string {
  for (const candidate of paths) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Try the next place.
    }
  }
  throw new Error(
    `${name} is not installed: apt-get install -y ${apt} (bash .ci/run installs it before the tests).`,
  );
}

async function poll(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A real `redis-server` on a free loopback port, with an append-only file. */
export interface TestRedis {
  readonly url: string;
  /** Kills it (SIGKILL, as a crash); its data stays on disk. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  dispose(): Promise<void>;
  cli(args: readonly string[]): string;
}

/**
 * Starts Debian's `redis-server` with persistence (AOF, fsync always), so that a
 * restart keeps the sessions, as a production Redis should.
 *
 * @returns the running server
 * @throws when redis-server or redis-cli is missing
 */
export async function startRedis(): Promise<TestRedis> {
  const server = requireProgram(
    'redis-server',
    ['redis-server', '/usr/bin/redis-server'],
    'redis-server',
  );
  const client = requireProgram('redis-cli', ['redis-cli', '/usr/bin/redis-cli'], 'redis-server');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-redis-'));
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
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''].concat([
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
      ]),
      { stdio: 'ignore' },
    );
    await poll('redis-server', ping);
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
    start,
    stop,
    cli,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** nginx in front of the replicas: round robin, no stickiness, SSE unbuffered. */
export interface TestBalancer {
  readonly url: string;
  /** The `host:port` clients send as Host (the replicas must allow it). */
  readonly host: string;
  dispose(): Promise<void>;
}

/**
 * Starts Debian's nginx as a plain round-robin load balancer (no `ip_hash`, no
 * sticky cookie) over the replicas' ports, with its files in a temporary folder.
 * A request that cannot reach a replica (refused) goes to the next one.
 *
 * @param port - the balancer's port on 127.0.0.1
 * @param replicaPorts - the replicas' ports on 127.0.0.1
 * @returns the running balancer
 * @throws when nginx is missing or does not start
 */
export async function startBalancer(
  port: number,
  replicaPorts: readonly number[],
): Promise<TestBalancer> {
  const nginx = requireProgram('nginx', ['nginx', '/usr/sbin/nginx'], 'nginx');
  const dir = mkdtempSync(join(tmpdir(), 'gw-nginx-'));
  // Run as root, nginx's workers are `nobody`: they must reach their temporary folders.
  chmodSync(dir, 0o755);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const config = join(dir, 'nginx.conf');
  writeFileSync(
    config,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream gateway {
${replicaPorts.map((replica) => `    server 127.0.0.1:${replica} max_fails=1 fail_timeout=2s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://gateway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
    }
  }
}
`,
  );
  const child = spawn(nginx, ['-c', config, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Up when a request through it reaches a replica (start the replicas first).
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not come up: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    host: `127.0.0.1:${port}`,
    async dispose() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

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
