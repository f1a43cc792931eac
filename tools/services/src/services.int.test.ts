import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';
import { startNginxBalancer } from './nginx-balancer.js';
import { startRedis } from './redis.js';
import { requireProgram } from './require-program.js';

describe('requireProgram', () => {
  it('fails with the apt-get install command when no path runs', () => {
    expect(() => requireProgram('nope', ['/nonexistent/nope'], 'nope-package')).toThrow(
      'nope is not installed: apt-get install -y nope-package',
    );
  });
});

describe('startRedis', () => {
  it('keeps the data across a crash and a restart with its append-only file', async () => {
    const redis = await startRedis();
    try {
      expect(redis.cli(['SET', 'kept', 'yes'])).toBe('OK');
      await redis.stop();
      expect(() => redis.cli(['PING'])).toThrow();
      await redis.start();
      expect(redis.cli(['GET', 'kept'])).toBe('yes');
    } finally {
      await redis.dispose();
    }
  });

  it('loses the data on a restart without the append-only file', async () => {
    const redis = await startRedis({ appendOnly: false });
    try {
      redis.cli(['SET', 'lost', 'yes']);
      await redis.stop();
      await redis.start();
      expect(redis.cli(['GET', 'lost'])).toBe('');
    } finally {
      await redis.dispose();
    }
  });
});

describe('startNginxBalancer', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
    );
  });

  async function replica(name: string): Promise<number> {
    const port = await freePort();
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`${name} ${request.headers.host}`);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return port;
  }

  it('spreads requests round robin over the replicas, passing the Host on, and skips a refused one', async () => {
    const ports = [await replica('a'), await replica('b'), await freePort()];
    const balancer = await startNginxBalancer(await freePort(), ports);
    try {
      const answers: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        const response = await fetch(balancer.url);
        expect(response.status).toBe(200);
        answers.push(await response.text());
      }
      const names = answers.map((answer) => answer.split(' ')[0]);
      // No stickiness: one client's requests reach both live replicas.
      expect(names.filter((name) => name === 'a').length).toBeGreaterThanOrEqual(2);
      expect(names.filter((name) => name === 'b').length).toBeGreaterThanOrEqual(2);
      expect(answers.every((answer) => answer.endsWith(balancer.host))).toBe(true);
    } finally {
      await balancer.dispose();
    }
  });
});
