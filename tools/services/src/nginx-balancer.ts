import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireProgram } from './require-program.js';

/** nginx in front of the replicas: round robin, no stickiness, SSE unbuffered. */
export interface TestBalancer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The `host:port` clients send as Host (the replicas must allow it). */
  readonly host: string;
  /** Stops nginx (SIGTERM) and removes its folder. */
  dispose(): Promise<void>;
}

/** How {@link startNginxBalancer} configures nginx. */
export interface NginxBalancerOptions {
  /**
   * The path it probes through the balancer until a replica answers 200.
   *
   * @defaultValue '/healthz'
   */
  readonly probePath?: string;
  /**
   * nginx's `worker_connections` (a proxied request takes two).
   *
   * @defaultValue 512
   */
  readonly workerConnections?: number;
  /**
   * Idle keep-alive connections to the replicas per worker (`keepalive`); 0 for none.
   *
   * @defaultValue 0
   */
  readonly keepalive?: number;
  /**
   * How long a replica that refused a connection counts as down (`fail_timeout`).
   *
   * @defaultValue '2s'
   */
  readonly failTimeout?: string;
}

function nginxConfig(
  dir: string,
  port: number,
  replicaPorts: readonly number[],
  options: Omit<Required<NginxBalancerOptions>, 'probePath'>,
): string {
  const servers = replicaPorts.map(
    (replica) => `    server 127.0.0.1:${replica} max_fails=1 fail_timeout=${options.failTimeout};`,
  );
  if (options.keepalive > 0) servers.push(`    keepalive ${options.keepalive};`);
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${options.workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream gateway {
${servers.join('\n')}
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
`;
}

/**
 * Starts Debian's nginx as a plain round-robin load balancer (no `ip_hash`, no
 * sticky cookie, responses and request bodies unbuffered so SSE streams through)
 * over the replicas' ports, with its files in a temporary folder. A request that
 * cannot reach a replica (refused) goes to the next one. Start the replicas first:
 * it is up when a request through it reaches one.
 *
 * @param port - the balancer's port on 127.0.0.1
 * @param replicaPorts - the replicas' ports on 127.0.0.1
 * @param options - probe path and tuning; see {@link NginxBalancerOptions}
 * @returns the running balancer
 * @throws an `Error` when nginx is not installed (the install message: never a skip),
 *   exits, or does not reach a replica within 20 s
 */
export async function startNginxBalancer(
  port: number,
  replicaPorts: readonly number[],
  options: NginxBalancerOptions = {},
): Promise<TestBalancer> {
  const nginx = requireProgram('nginx', ['nginx', '/usr/sbin/nginx'], 'nginx');
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-nginx-'));
  // Run as root, nginx's workers are `nobody`: they must reach their temporary folders.
  chmodSync(dir, 0o755);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const config = join(dir, 'nginx.conf');
  const resolved: Required<NginxBalancerOptions> = {
    probePath: options.probePath ?? '/healthz',
    workerConnections: options.workerConnections ?? 512,
    keepalive: options.keepalive ?? 0,
    failTimeout: options.failTimeout ?? '2s',
  };
  writeFileSync(config, nginxConfig(dir, port, replicaPorts, resolved));
  const child = spawn(nginx, ['-c', config, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const probe = `http://127.0.0.1:${port}${resolved.probePath}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await dispose();
      throw new Error(`nginx exited: ${stderr}`);
    }
    const up = await fetch(probe).then(
      (response) => response.status === 200,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await dispose();
      throw new Error(`nginx did not come up: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `http://127.0.0.1:${port}/mcp`, host: `127.0.0.1:${port}`, dispose };
}
