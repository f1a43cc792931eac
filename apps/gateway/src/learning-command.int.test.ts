import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openGatewayStore, openLearningStore } from '@tool-search/mcp';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run.js';

describe('gateway learning export|import|clear, and inspect', () => {
  let redis: TestRedis;
  let folder: string;
  let config: string;

  beforeAll(async () => {
    redis = await startRedis();
    folder = mkdtempSync(join(tmpdir(), 'gateway-learning-'));
    config = join(folder, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: {}, store: `${redis.url}/3`, learning: { enabled: true } }),
    );
    // What gateways on the store learned: recorded through the store as a gateway does.
    const store = await openGatewayStore(`${redis.url}/3`);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await store.ping();
          break;
        } catch (error) {
          if (attempt > 40) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const learning = openLearningStore(store, undefined);
      await learning.add({ profile: 'team', tool: 'send_message', terms: ['ping', 'chan'] });
      await learning.add({ profile: 'team', tool: 'send_message', terms: ['ping'] });
      await learning.add({ profile: 'ops', tool: 'restart', terms: ['reboot'] });
    } finally {
      await store.close();
    }
  }, 30_000);
  afterAll(async () => {
    await redis?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  it('exports, clears and imports the learned terms as JSON', async () => {
    const exported = await runCli(['learning', 'export', '--config', config]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const saved = JSON.parse(exported.stdout);
    expect(saved).toEqual({
      format: 'tool-search-learning',
      version: 1,
      profiles: { ops: { restart: { reboot: 1 } }, team: { send_message: { ping: 2, chan: 1 } } },
    });
    const file = join(folder, 'team.json');
    const one = await runCli([
      'learning',
      'export',
      '--config',
      config,
      '--profile',
      'team',
      '--file',
      file,
    ]);
    expect(one.code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles)).toEqual(['team']);

    const cleared = await runCli(['learning', 'clear', '--config', config, '--profile', 'team']);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/cleared the learned terms of profile 'team'/);
    const after = JSON.parse((await runCli(['learning', 'export', '--config', config])).stdout);
    expect(after.profiles).toEqual({ ops: { restart: { reboot: 1 } } });

    const imported = await runCli(['learning', 'import', '--config', config, '--file', file]);
    expect(imported.code).toBe(0);
    const back = JSON.parse((await runCli(['learning', 'export', '--config', config])).stdout);
    expect(back).toEqual(saved);
  }, 60_000);

  it('lists each tool’s learned terms and counts in inspect', async () => {
    const run = await runCli(['inspect', '--config', config]);
    expect(run.code).toBe(0);
    const section = run.stdout.slice(run.stdout.indexOf('learning:'));
    expect(section).toMatch(/^learning: on; 2 tools have learned terms/);
    expect(section).toMatch(/team\s+send_message\s+2\s+ping 2, chan 1/);
    expect(section).toMatch(/ops\s+restart\s+1\s+reboot 1/);
  }, 60_000);

  it('refuses a memory store, a bad action and a file that is not an export', async () => {
    const memory = join(folder, 'memory.json');
    writeFileSync(memory, JSON.stringify({ mcpServers: {}, learning: { enabled: true } }));
    const refused = await runCli(['learning', 'export', '--config', memory]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/memory store keeps learned terms in the serving gateway/);
    const inspected = await runCli(['inspect', '--config', memory]);
    expect(inspected.stdout).toMatch(/learning: on; a memory store keeps learned terms/);

    const action = await runCli(['learning', 'forget', '--config', config]);
    expect(action.code).toBe(2);
    expect(action.stderr).toMatch(/learning needs one of export, import, clear, got 'forget'/);

    const bad = join(folder, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'something-else' }));
    const notExport = await runCli(['learning', 'import', '--config', config, '--file', bad]);
    expect(notExport.code).toBe(2);
    expect(notExport.stderr).toMatch(/Not a learning export/);
  }, 60_000);
});
