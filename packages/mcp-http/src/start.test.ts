import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/core';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryInProcess } from '../../mcp/src/__fixtures__/worker-server.js';
import { connectHttpClient } from './__fixtures__/clients.js';
import {
  checkAllowedOrigin,
  isLoopbackHost,
  validateGatewayHttpOptions,
} from './http/http-validation.js';
import { startGateway } from './start.js';

const folder = mkdtempSync(join(tmpdir(), 'tool-search-start-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An in-process upstream that leaves a marker file when it is started (then is gone). */
function markerServer(marker: string) {
  return {
    transport: () => {
      writeFileSync(marker, '');
      throw new Error('the marker server leaves once it has left its marker');
    },
  };
}

async function invalidConfig(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ToolSearchError.isInstance(error)).toBe(true);
  expect((error as ToolSearchError).code).toBe('invalid_config');
  return (error as ToolSearchError).message;
}

describe('startGateway', () => {
  it('serves the pooled tools over HTTP with a random token, and closes the upstreams', async () => {
    const config = parseGatewayConfig({
      mcpServers: { memory: memoryInProcess(join(folder, 'memory.jsonl')) },
      toolSearch: { enabled: false },
    });
    const gateway = await startGateway({ config, http: true });
    try {
      expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(gateway.token?.length).toBeGreaterThanOrEqual(16);
      const statuses = await gateway.ready();
      expect(statuses.map((status) => status.state)).toEqual(['ready']);
      const client = await connectHttpClient(gateway.url!, { token: gateway.token! });
      const names = await client.names();
      expect(names).toContain('read_graph');
      await client.close();
      await expect(connectHttpClient(gateway.url!)).rejects.toThrow();
    } finally {
      await gateway.close();
    }
    expect(gateway.pool.status().map((status) => status.state)).toEqual(['closed']);
  });

  it('refuses a non-loopback bind without a token before any upstream is spawned', async () => {
    const refused = join(folder, 'refused.marker');
    const spawned = join(folder, 'spawned.marker');
    const message = await invalidConfig(
      startGateway({
        config: parseGatewayConfig({ mcpServers: { marker: markerServer(refused) } }),
        http: { host: '0.0.0.0', port: 0 },
      }),
    );
    expect(message).toMatch(/Refusing to serve HTTP on 0\.0\.0\.0 without a bearer token/);
    // The control: the same upstream is spawned by a gateway that may start. Once its
    // first connect round is over, a spawn by the refused one would have happened too.
    const control = await startGateway({
      config: parseGatewayConfig({ mcpServers: { marker: markerServer(spawned) } }),
    });
    await control.ready();
    await control.close();
    expect(existsSync(spawned)).toBe(true);
    expect(existsSync(refused)).toBe(false);
  });

  it('refuses an unknown profile before any upstream is spawned', async () => {
    const refused = join(folder, 'profile.marker');
    const message = await invalidConfig(
      startGateway({
        config: parseGatewayConfig({ mcpServers: { marker: markerServer(refused) } }),
        profile: 'nobody',
      }),
    );
    expect(message).toContain("Unknown profile 'nobody'");
    const control = await startGateway({
      config: parseGatewayConfig({ mcpServers: { marker: markerServer(refused + '.control') } }),
    });
    await control.ready();
    await control.close();
    expect(existsSync(refused)).toBe(false);
  });
});

describe('validateGatewayHttpOptions', () => {
  it('accepts a loopback bind without a token, and counts the tokens of the profiles', () => {
    expect(validateGatewayHttpOptions({ host: '127.0.0.1' })).toBe(0);
    const config = parseGatewayConfig({
      mcpServers: {},
      profiles: { reader: { token: 'reader-token-0123456789' } },
    });
    expect(validateGatewayHttpOptions({ host: '0.0.0.0', token: 'x'.repeat(16) }, config)).toBe(2);
  });

  it('refuses short tokens, bad origins, negative idle timeouts and limits below 1', () => {
    const refuse = (options: Parameters<typeof validateGatewayHttpOptions>[0]) => {
      try {
        validateGatewayHttpOptions(options);
      } catch (error) {
        expect((error as ToolSearchError).code).toBe('invalid_config');
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refuse({ token: 'short' })).toContain('at least 16 characters');
    expect(refuse({ allowedOrigins: ['http://localhost:6274/'] })).toContain(
      "did you mean 'http://localhost:6274'?",
    );
    expect(refuse({ idleTimeoutMs: -1 })).toContain('idleTimeoutMs');
    expect(refuse({ maxSessions: 0 })).toContain('maxSessions');
    expect(refuse({ host: '10.0.0.5' })).toContain('without a bearer token');
  });
});

describe('isLoopbackHost', () => {
  it('knows the loopback names and addresses, and nothing else', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.5',
      'example.com',
      '128.0.0.1',
      '127.0.0.1.evil',
    ]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe('checkAllowedOrigin', () => {
  it('accepts a serialized origin and refuses a wildcard, a path or a trailing slash', () => {
    expect(() => checkAllowedOrigin('http://localhost:6274')).not.toThrow();
    for (const origin of ['*', 'http://localhost:6274/', 'https://example.com/app', 'localhost']) {
      expect(() => checkAllowedOrigin(origin)).toThrow(/not an origin as browsers send it/);
    }
  });
});
