import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GatewayProcess, type StartGatewayOptions, startGateway } from './gateway-process.js';

/** Several gateway replicas on one Redis store behind nginx (round robin, no stickiness). */
export interface ReplicaSet {
  /** The balancer's MCP endpoint. */
  url: string;
  /** The replicas. */
  replicas: GatewayProcess[];
  /** The store they share. */
  store: string;
  /** Stops nginx, the replicas and the Redis this set started. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function program(name: string, apt: string): string {
  for (const candidate of [name, `/usr/sbin/${name}`, `/usr/bin/${name}`]) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // The next place.
    }
  }
  throw new Error(`${name} is not installed: apt-get install -y ${apt}`);
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/**
 * Starts `count` gateway replicas on a shared Redis store (a `redis-server` of its own
 * on a free loopback port, unless `store` names one) behind an nginx round-robin
 * balancer without stickiness.
 *
 * @param count - how many replicas
 * @param gateway - the options of every replica (config, token, context window)
 * @param store - a Redis URL to use instead of starting one
 * @returns the running set
 * @throws when redis-server or nginx is missing, or a process does not start
 */
export async function startReplicaSet(
  count: number,
  gateway: Omit<StartGatewayOptions, 'port' | 'extraArgs'>,
  store?: string,
): Promise<ReplicaSet> {
  const folder = mkdtempSync(join(tmpdir(), 'tool-search-replicas-'));
  // Run as root, nginx's workers are `nobody`: they must reach their temporary folders.
  chmodSync(folder, 0o755);
  let redis: ChildProcess | undefined;
  let nginx: ChildProcess | undefined;
  const replicas: GatewayProcess[] = [];
  const stop = async () => {
    await stopChild(nginx);
    await Promise.all(replicas.map((replica) => replica.stop()));
    await stopChild(redis);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    let url = store;
    if (url === undefined) {
      const port = await freePort();
      redis = spawn(
        program('redis-server', 'redis-server'),
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', folder],
        { stdio: 'ignore' },
      );
      const cli = program('redis-cli', 'redis-server');
      await until('redis-server', async () => {
        try {
          return (
            execFileSync(cli, ['-p', String(port), 'PING'], { encoding: 'utf8' }).trim() === 'PONG'
          );
        } catch {
          return false;
        }
      });
      url = `redis://127.0.0.1:${port}`;
    }
    const balancerPort = await freePort();
    const ports: number[] = [];
    for (let index = 0; index < count; index += 1) ports.push(await freePort());
    const started = await Promise.all(
      ports.map((port) =>
        startGateway({
          ...gateway,
          port,
          extraArgs: ['--store', url!, '--allow-host', `127.0.0.1:${balancerPort}`],
        }),
      ),
    );
    replicas.push(...started);
    for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(folder, sub));
    const config = join(folder, 'nginx.conf');
    writeFileSync(
      config,
      `worker_processes 1;
daemon off;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream gateway {
${ports.map((port) => `    server 127.0.0.1:${port};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${balancerPort};
    location / {
      proxy_pass http://gateway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`,
    );
    nginx = spawn(program('nginx', 'nginx'), ['-c', config, '-p', folder], { stdio: 'ignore' });
    await until('nginx', () =>
      fetch(`http://127.0.0.1:${balancerPort}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      ),
    );
    return { url: `http://127.0.0.1:${balancerPort}/mcp`, replicas, store: url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
