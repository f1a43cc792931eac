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

/** What {@link startGatewayOrReplicas} started: one process to talk to, and the set when there are replicas. */
export interface StartedTarget {
  /** The process the run talks to: the gateway, or the first replica with the balancer's URL. */
  gateway: GatewayProcess;
  /** The replica set, when the run asked for replicas or a store. */
  replicaSet?: ReplicaSet;
}

/**
 * Starts what a run talks to: one gateway process, or (with more than one replica or a
 * store) a replica set on Redis behind nginx, standing in as its first replica with the
 * balancer's URL.
 *
 * @param options.replicas - how many replicas
 * @param options.store - a Redis URL to use instead of starting one
 * @param gateway - the options of every gateway process
 * @param log - progress lines
 * @returns the target of the run
 * @throws when a process, redis-server or nginx does not start
 */
export async function startGatewayOrReplicas(
  options: { replicas: number; store?: string | undefined },
  gateway: Omit<StartGatewayOptions, 'port' | 'extraArgs'>,
  log: (line: string) => void,
): Promise<StartedTarget> {
  if (options.replicas > 1 || options.store !== undefined) {
    log(`starting ${options.replicas} replica(s) on a Redis store behind nginx`);
    const set = await startReplicaSet(options.replicas, gateway, options.store);
    // The run talks to the balancer; the first replica stands for the numbers of one process.
    return {
      gateway: { ...set.replicas[0]!, url: set.url, stop: () => set.stop() },
      replicaSet: set,
    };
  }
  log('starting the gateway');
  return { gateway: await startGateway(gateway) };
}
