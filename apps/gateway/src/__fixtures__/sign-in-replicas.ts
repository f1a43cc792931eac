import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { freePort, startRedis, type TestRedis } from '@tool-search/services';
import { startReplica, type TestReplica } from './replicas.js';

/** An OAuth stand-in, Redis, and a config of replicas that keep their sign-ins in it, sealed. */
export interface SignInReplicaWorld {
  standIn: StandIn;
  redis: TestRedis;
  /** The config file. */
  config: string;
  /** The sealing key and the state folder, for `login` and the replicas. */
  env: Record<string, string>;
  /** The replicas started so far. */
  replicas: TestReplica[];
  /** The `/mcp` URL of a replica. */
  urlOf(replica: TestReplica): URL;
  /**
   * Starts `count` replicas with the gateway token, the key in their environment (as an
   * operator's unit would set it).
   */
  startReplicas(count: number, token: string): Promise<TestReplica[]>;
  close(): Promise<void>;
}

/**
 * Starts the stand-in and Redis and writes the config `configOf` makes (given the
 * stand-in's MCP URL and the Redis URL).
 *
 * @param name - a word for the temporary folder
 * @param configOf - the config, from the stand-in's MCP URL and the store's URL
 * @returns the world; `close()` stops the replicas, the stand-in and Redis
 */
export async function startSignInReplicaWorld(
  name: string,
  configOf: (mcpUrl: string, store: string) => Record<string, unknown>,
): Promise<SignInReplicaWorld> {
  const standIn = await startOAuthStandIn();
  const redis = await startRedis();
  const workspace = mkdtempSync(join(tmpdir(), `gw-${name}-`));
  const config = join(workspace, 'gateway.json');
  const env = {
    TOOL_SEARCH_SIGN_IN_KEY: randomBytes(32).toString('base64'),
    TOOL_SEARCH_STATE_DIR: join(workspace, 'state'),
  };
  writeFileSync(config, JSON.stringify(configOf(standIn.mcpUrl, redis.url)));
  const replicas: TestReplica[] = [];
  let restoreEnv = () => {};
  return {
    standIn,
    redis,
    config,
    env,
    replicas,
    urlOf: (replica) => new URL(`http://127.0.0.1:${replica.port}/mcp`),
    async startReplicas(count, token) {
      Object.assign(process.env, env);
      restoreEnv = () => {
        for (const key of Object.keys(env)) delete process.env[key];
      };
      for (let index = 0; index < count; index += 1) {
        replicas.push(await startReplica(config, await freePort(), ['--token', token]));
      }
      return replicas;
    },
    async close() {
      for (const replica of replicas) await replica.kill();
      restoreEnv();
      await standIn.close();
      await redis.stop();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
