import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { writeToolReview } from '@tool-search/mcp/review';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingInProcess, hostileInProcess } from '../../../mcp/src/__fixtures__/in-process.js';
import { until } from '../__fixtures__/clients.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-review-token-0123456789ab';

describe('the console review with the review file (no shared store)', () => {
  let folder: string;
  let file: string;
  let gateway: StartedGateway;
  let change: (route: string, body: unknown) => Promise<Response>;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'console-review-'));
    file = join(folder, 'tool-review.json');
    const config = parseGatewayConfig({
      mcpServers: { hostile: hostileInProcess(), everything: everythingInProcess() },
      review: { file, hold: 'changed' },
      console: { enabled: true },
    });
    gateway = await startGateway({ config, http: { port: 0, token: TOKEN } });
    await gateway.ready();
    await writeToolReview(
      file,
      new Map(
        gateway.pool
          .fingerprints()
          .map((item) => [`${item.server}/${item.name}`, item.fingerprint]),
      ),
    );
    const api = (path: string, init?: RequestInit) =>
      fetch(new URL(`/console/api/${path}`, gateway.url), init);
    const login = await api('login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf } = (await login.json()) as { csrf: string };
    change = (route, body) =>
      api(route, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(body),
      });
  });
  afterAll(async () => {
    await gateway?.close();
    await rm(folder, { recursive: true, force: true });
  });

  const served = () => gateway.pool.tools().map((tool) => tool.name);
  const heldNames = () =>
    gateway.pool.status().flatMap((server) => server.heldTools.map((held) => held.name));

  it('holds only the tool an operator held, and serves it again once accepted', async () => {
    const before = served();
    expect(before).toContain('hostile_echo');
    expect(before.length).toBeGreaterThan(3);
    const hold = await change('tools/hold', { key: 'hostile/hostile_echo' });
    expect(hold.status).toBe(200);
    await until(() => heldNames().includes('hostile_echo'));
    // Every other tool of every server is still served.
    expect(served().sort()).toEqual(before.filter((name) => name !== 'hostile_echo').sort());
    expect(gateway.pool.status().flatMap((server) => server.heldTools)).toEqual([
      expect.objectContaining({ name: 'hostile_echo', reason: 'held' }),
    ]);
    const accept = await change('tools/accept', { key: 'hostile/hostile_echo' });
    expect(accept.status).toBe(200);
    await until(() => served().includes('hostile_echo'));
    expect(served().sort()).toEqual([...before].sort());
    expect(heldNames()).toEqual([]);
  });

  it('holds only the entry a hand edit broke, says why, and still accepts through the console', async () => {
    const before = served();
    const text = JSON.parse(await readFile(file, 'utf8')) as { tools: Record<string, unknown> };
    text.tools['hostile/hostile_echo'] = 42;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify(text));
    await until(() => heldNames().includes('hostile_echo'));
    expect(served().sort()).toEqual(before.filter((name) => name !== 'hostile_echo').sort());
    const [held] = gateway.pool.status().flatMap((server) => server.heldTools);
    expect(held).toMatchObject({ name: 'hostile_echo', reason: 'unreviewable' });
    expect(held!.detail).toContain("'hostile/hostile_echo'");
    const accept = await change('tools/accept', { key: 'hostile/hostile_echo' });
    expect(accept.status).toBe(200);
    await until(() => served().includes('hostile_echo'));
  });
});
