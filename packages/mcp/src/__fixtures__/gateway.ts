import { join } from 'node:path';
import { type GatewayConfig, parseGatewayConfig } from '../config/parse.js';
import { createGatewayServer, type GatewayServer } from '../gateway/server.js';
import type { GatewayActivity } from '../gateway/types.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { connectClient, type TestClient } from './clients.js';
import {
  changingInProcess,
  crashInProcess,
  everythingInProcess,
  hangInProcess,
  malformedInProcess,
  unreachableInProcess,
} from './in-process.js';
import { tempWorkspace } from './servers.js';
import { filesystemInProcess, memoryInProcess } from './worker-server.js';

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
export const FILES_TOKEN = 'files-token-0123456789abcdef';
export const MEMORY_TOKEN = 'memory-token-0123456789abcdef';

/** A gateway over real and misbehaving upstreams (in-process), with an admin client in process. */
export interface TestGateway {
  workspace: ReturnType<typeof tempWorkspace>;
  activity: GatewayActivity[];
  config: GatewayConfig;
  pool: UpstreamPool;
  gateway: GatewayServer;
  admin: TestClient;
  close(): Promise<void>;
}

/**
 * Starts the gateway of the server and HTTP tests: everything, filesystem and memory,
 * a changing, a crashing, a hanging and a malformed server, and one that cannot be reached;
 * profiles `files` and `memory` with tokens; a pin, a guardrail and an approval rule.
 */
export async function startTestGateway(): Promise<TestGateway> {
  const workspace = tempWorkspace();
  const activity: GatewayActivity[] = [];
  const config = parseGatewayConfig({
    mcpServers: {
      everything: everythingInProcess(),
      filesystem: filesystemInProcess(workspace.directory),
      memory: memoryInProcess(join(workspace.directory, 'memory.jsonl')),
      changing: changingInProcess(),
      crashy: crashInProcess(),
      hang: hangInProcess(),
      malformed: malformedInProcess(),
      missing: unreachableInProcess(),
    },
    toolSearch: { enabled: 'auto', threshold_pct: 10 },
    profiles: {
      files: { enabledToolsets: ['mcp-filesystem'], token: FILES_TOKEN },
      memory: { enabledToolsets: ['mcp-memory'], token: MEMORY_TOKEN },
    },
    pins: { tools: ['read_text_file'] },
    guardrails: { deny: ['delete_entities'], validateArguments: true },
    approval: { require: ['write_file'], fallback: 'deny' },
  });
  const pool = createUpstreamPool(config, { reconnect: { initialDelayMs: 100 } });
  await pool.start();
  const gateway = createGatewayServer({
    pool,
    config,
    contextWindow: 32_000,
    onActivity: (entry) => activity.push(entry),
  });
  const admin = await connectClient(gateway, { token: ADMIN_TOKEN });
  return {
    workspace,
    activity,
    config,
    pool,
    gateway,
    admin,
    async close() {
      await admin.close();
      await gateway.close();
      await pool.close();
      workspace.cleanup();
    },
  };
}
