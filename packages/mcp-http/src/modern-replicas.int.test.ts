import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystemServer, tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { postModern } from './__fixtures__/modern-wire.js';
import { startReplicas } from './__fixtures__/replicas.js';
import type { StartedGateway } from './start.js';

const TOKEN = 'modern-replica-token-0123456789';
const OTHER_TOKEN = 'modern-other-token-0123456789ab';

type Json = Record<string, unknown>;

describe('the modern leg on replicas sharing a Redis store', () => {
  let redis: TestRedis;
  let workspace: ReturnType<typeof tempWorkspace>;
  const replicas: StartedGateway[] = [];
  let id = 1;

  beforeAll(async () => {
    redis = await startRedis();
    workspace = tempWorkspace();
    const config = parseGatewayConfig({
      mcpServers: { filesystem: filesystemServer(workspace.directory) },
      toolSearch: { enabled: 'off' },
      approval: { require: ['write_file'], fallback: 'deny' },
      profiles: { other: { token: OTHER_TOKEN } },
    });
    replicas.push(...(await startReplicas({ config, store: redis.url, token: TOKEN })));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
    workspace?.cleanup();
  });

  const a = () => replicas[0]!.url!;
  const b = () => replicas[1]!.url!;
  const write = (path: string, extra: Json = {}) => ({
    name: 'write_file',
    arguments: { path: join(workspace.directory, path), content: path },
    ...extra,
  });

  it('lists the same tools on every replica', async () => {
    const lists = await Promise.all(
      [a(), b()].map(
        async (url) => (await postModern(url, TOKEN, 'tools/list', {}, id++))['result'],
      ),
    );
    expect(lists[0]).toEqual(lists[1]);
  });

  it('asks on one replica, runs the answer on another, once', async () => {
    const asked = (await postModern(a(), TOKEN, 'tools/call', write('across.txt'), id++))[
      'result'
    ] as Json;
    expect(asked['resultType']).toBe('input_required');
    const requestState = asked['requestState'] as string;
    const answer = { approval: { action: 'accept', content: { decision: 'allow-once' } } };
    const response = await postModern(
      b(),
      TOKEN,
      'tools/call',
      write('across.txt', { requestState, inputResponses: answer }),
      id++,
    );
    const ran = response['result'] as Json;
    expect(response['error']).toBeUndefined();
    expect(ran?.['isError'], JSON.stringify(ran)).not.toBe(true);
    expect(readFileSync(join(workspace.directory, 'across.txt'), 'utf8')).toBe('across.txt');
    // The same state on the first replica: the store says it was used.
    const replayed = await postModern(
      a(),
      TOKEN,
      'tools/call',
      write('across.txt', { requestState, inputResponses: answer }),
      id++,
    );
    expect((replayed['error'] as { message: string }).message).toMatch(/already used/);
  });

  it('honours "allow for this credential" on every replica, not for another credential', async () => {
    const asked = (await postModern(b(), TOKEN, 'tools/call', write('granted-a.txt'), id++))[
      'result'
    ] as Json;
    await postModern(
      b(),
      TOKEN,
      'tools/call',
      write('granted-a.txt', {
        requestState: asked['requestState'],
        inputResponses: { approval: { action: 'accept', content: { decision: 'allow-session' } } },
      }),
      id++,
    );
    const next = (await postModern(a(), TOKEN, 'tools/call', write('granted-b.txt'), id++))[
      'result'
    ] as Json;
    expect(next['resultType']).toBe('complete');
    expect(existsSync(join(workspace.directory, 'granted-b.txt'))).toBe(true);
    const other = (await postModern(a(), OTHER_TOKEN, 'tools/call', write('granted-c.txt'), id++))[
      'result'
    ] as Json;
    expect(other['resultType']).toBe('input_required');
  });
});
