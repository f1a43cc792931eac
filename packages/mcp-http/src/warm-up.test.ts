import {
  createBm25Ranker,
  parseToolSearchConfig,
  type RankerV2,
  type ToolDefinition,
} from '@tool-search/core';
import type { GatewayActivity, WarmUpReport } from '@tool-search/mcp';
import {
  createGatewayServer,
  createUpstreamPool,
  type GatewayServer,
  type UpstreamPool,
} from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingInProcess } from '../../mcp/src/__fixtures__/in-process.js';
import { tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { filesystemInProcess } from '../../mcp/src/__fixtures__/worker-server.js';
import { connectHttpClient, type TestClient } from './__fixtures__/clients.js';
import type { GatewayHttpListener } from './http/http.js';
import { listenGatewayHttp } from './http/http.js';

const FILES_TOKEN = 'files-token-0123456789abcdef';

/** The default ranker, telling which of its index builds started cold (no previous index). */
function countingRanker() {
  const inner = createBm25Ranker() as RankerV2;
  const builds: { cold: boolean; size: number }[] = [];
  const ranker: RankerV2 = {
    specificationVersion: 'v2',
    id: inner.id,
    index(tools: readonly ToolDefinition[], options) {
      builds.push({ cold: options?.previous === undefined, size: tools.length });
      return inner.index(tools, options);
    },
  };
  return { ranker, builds };
}

describe('the gateway warm-up', () => {
  const workspace = tempWorkspace();
  let pool: UpstreamPool;
  let gateway: GatewayServer | undefined;
  let listener: GatewayHttpListener | undefined;
  let client: TestClient | undefined;
  const counting = countingRanker();
  const activity: GatewayActivity[] = [];
  let report: WarmUpReport;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: {
        everything: everythingInProcess(),
        filesystem: filesystemInProcess(workspace.directory),
      },
      toolSearch: { enabled: 'on' },
      profiles: { files: { enabledToolsets: ['mcp-filesystem'], token: FILES_TOKEN } },
    });
    pool = createUpstreamPool(config);
    const ready = pool.start();
    report = await new Promise<WarmUpReport>((resolve) => {
      gateway = createGatewayServer({
        pool,
        config,
        ranker: counting.ranker,
        upstreamsReady: ready,
        onWarmUp: resolve,
        onActivity: (entry) => activity.push(entry),
      });
    });
    listener = await listenGatewayHttp(gateway!, {
      port: 0,
      token: 'admin-token-0123456789abcdef',
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
    workspace.cleanup();
  });

  it('searches every profile once the first connect round settled, without a trace of its sessions', () => {
    expect(report.scopes).toEqual(['(default)', 'files']);
    expect(report.searched).toEqual(['(default)', 'files']);
    expect(pool.status().every((server) => server.state === 'ready')).toBe(true);
    // One cold build, then each scope's index patched from the last one the ranker built.
    expect(counting.builds.map((build) => build.cold)[0]).toBe(true);
    expect(counting.builds.filter((build) => build.cold)).toHaveLength(1);
    const files = pool.tools().filter((tool) => tool.toolset === 'mcp-filesystem').length;
    expect(new Set(counting.builds.map((build) => build.size))).toEqual(
      new Set([pool.tools().length, files]),
    );
    expect(gateway!.sessions()).toEqual([]);
    expect(activity).toEqual([]);
  });

  it("builds no index cold on a client's first search: the warm-up built it", async () => {
    const before = counting.builds.length;
    client = await connectHttpClient(listener!.url, { token: FILES_TOKEN });
    const answer = await client.bridge('tool_search', { query: 'read a file' });
    expect((answer['matches'] as { name: string }[]).length).toBeGreaterThan(0);
    const built = counting.builds.slice(before);
    expect(built.every((build) => !build.cold)).toBe(true);
    expect(activity.map((entry) => entry.kind)).toEqual(['search']);
  });

  it('does not run with warmUp: false (a client then builds the index cold)', async () => {
    const cold = countingRanker();
    let warmed = false;
    const quiet = createGatewayServer({
      pool,
      ranker: cold.ranker,
      config: { toolSearch: parseToolSearchConfig({ enabled: 'on' }) },
      warmUp: false,
      onWarmUp: () => {
        warmed = true;
      },
    });
    const http = await listenGatewayHttp(quiet, { port: 0 });
    const other = await connectHttpClient(http.url);
    try {
      await other.bridge('tool_search', { query: 'read a file' });
      expect(warmed).toBe(false);
      expect(cold.builds.map((build) => build.cold)).toEqual([true]);
    } finally {
      await other.close();
      await quiet.close();
    }
  });
});
