// A reload of the policy while sessions are open: the next call of every open session
// meets the new rules, a changed profile's scope applies (with list_changed), and the
// sessions of a removed profile end.
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf, until } from '../__fixtures__/clients.js';
import { everythingInProcess, slowInProcess } from '../__fixtures__/in-process.js';
import { type GatewayConfig, parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

const WIDE = 'reload-wide-token-0123456789ab';
const NARROW = 'reload-narrow-token-0123456789';

describe('GatewayServer.applyConfig', () => {
  let pool: UpstreamPool | undefined;
  let gateway: GatewayServer | undefined;
  const clients: TestClient[] = [];
  const servers = { one: everythingInProcess(), two: slowInProcess() };
  const configOf = (rest: Record<string, unknown>): GatewayConfig =>
    parseGatewayConfig({ mcpServers: servers, ...rest });

  async function start(rest: Record<string, unknown>) {
    const config = configOf(rest);
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config });
    return gateway;
  }
  async function connect(token?: string) {
    const client = await connectClient(gateway!, token === undefined ? {} : { token });
    clients.push(client);
    return client;
  }

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    await gateway?.close();
    await pool?.close();
  });

  it('denies a tool at the next call of an open session, which keeps working', async () => {
    await start({});
    const client = await connect();
    expect(textOf(await client.call('echo', { message: 'before' }))).toContain('before');
    const report = await gateway!.applyConfig(configOf({ guardrails: { deny: ['echo'] } }));
    expect(report).toEqual({ refreshed: 1, ended: [] });
    const denied = await client.call('echo', { message: 'after' });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).not.toContain('after');
    // Another tool still runs, and a new session meets the same rule.
    const names = await client.names();
    const other = names.find((name) => name === 'get-sum' || name === 'add');
    expect(other).toBeDefined();
    expect((await client.call(other!, { a: 1, b: 2 })).isError).toBeFalsy();
    expect((await (await connect()).call('echo', { message: 'x' })).isError).toBe(true);
    // Lifting the rule lets the same session call it again.
    await gateway!.applyConfig(configOf({}));
    expect(textOf(await client.call('echo', { message: 'again' }))).toContain('again');
  });

  it('applies a changed profile’s scope, tells the client, and ends a removed profile’s sessions', async () => {
    await start({
      profiles: {
        wide: { token: WIDE },
        narrow: { token: NARROW, enabledToolsets: ['mcp-one'] },
      },
    });
    const wide = await connect(WIDE);
    const narrow = await connect(NARROW);
    expect(await wide.names()).toContain('echo');
    const before = wide.listChanged();
    const report = await gateway!.applyConfig(
      configOf({ profiles: { wide: { token: WIDE, enabledToolsets: ['mcp-two'] } } }),
    );
    expect(report.refreshed).toBe(1);
    expect(report.ended).toHaveLength(1);
    expect(Object.keys(gateway!.profiles)).toEqual(['wide']);
    await until(() => wide.listChanged() > before);
    expect(await wide.names()).not.toContain('echo');
    const outOfScope = await wide.call('echo', { message: 'x' });
    expect(outOfScope.isError).toBe(true);
    expect(textOf(outOfScope)).toMatch(/not (currently )?available/);
    // The narrow session was ended: its requests fail, and no new one of that profile opens.
    await expect(narrow.names()).rejects.toThrow();
    expect(() => gateway!.openSession({ profile: 'narrow' })).toThrow(/Unknown profile 'narrow'/);
  });

  it('asks for approval at the next call once a reload requires it (a client that cannot be asked: denied)', async () => {
    await start({});
    const client = await connect();
    expect(textOf(await client.call('echo', { message: 'free' }))).toContain('free');
    await gateway!.applyConfig(configOf({ approval: { require: { tools: ['echo'] } } }));
    const refused = await client.call('echo', { message: 'held' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).not.toContain('Echo: held');
    await gateway!.applyConfig(
      configOf({ approval: { require: { tools: ['echo'] }, fallback: 'allow' } }),
    );
    expect(textOf(await client.call('echo', { message: 'let' }))).toContain('let');
  });

  it('changes nothing for a config it cannot apply', async () => {
    const config = configOf({ profiles: { wide: { token: WIDE } } });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config, profile: 'wide' });
    const client = await connect();
    await expect(gateway.applyConfig(configOf({ guardrails: { deny: ['echo'] } }))).rejects.toThrow(
      /default profile/,
    );
    expect(textOf(await client.call('echo', { message: 'still' }))).toContain('still');
    expect(Object.keys(gateway.profiles)).toEqual(['wide']);
  });
});
