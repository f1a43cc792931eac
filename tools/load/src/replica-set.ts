import {
  freePort,
  startNginxBalancer,
  startRedis,
  type TestBalancer,
  type TestRedis,
} from '@tool-search/services';
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
  let redis: TestRedis | undefined;
  let balancer: TestBalancer | undefined;
  const replicas: GatewayProcess[] = [];
  const stop = async () => {
    await balancer?.dispose();
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.dispose();
  };
  try {
    // A load run measures the gateway, not the disk: no append-only file.
    if (store === undefined) redis = await startRedis({ appendOnly: false });
    const url = store ?? redis!.url;
    const balancerPort = await freePort();
    const ports: number[] = [];
    for (let index = 0; index < count; index += 1) ports.push(await freePort());
    const started = await Promise.all(
      ports.map((port) =>
        startGateway({
          ...gateway,
          port,
          extraArgs: ['--store', url, '--allow-host', `127.0.0.1:${balancerPort}`],
        }),
      ),
    );
    replicas.push(...started);
    // Many concurrent sessions: more connections than the tests need, kept alive to the
    // replicas; a refused replica counts as down for nginx's default 10 s.
    balancer = await startNginxBalancer(balancerPort, ports, {
      probePath: '/readyz',
      workerConnections: 1024,
      keepalive: 64,
      failTimeout: '10s',
    });
    return { url: balancer.url, replicas, store: url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
