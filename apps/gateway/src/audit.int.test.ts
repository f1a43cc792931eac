import { spawn } from 'node:child_process';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './__fixtures__/paths.js';
import { runCli } from './__fixtures__/run.js';

// A record as a replica writes it, with a tool name a hostile upstream could choose.
const record = (tool: string) =>
  JSON.stringify({
    tool,
    via: 'direct',
    viaBridge: false,
    decision: 'allowed',
    status: 'ok',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    replica: 'test',
  });

// What a terminal acts on, or what reorders or hides text.
const RAW =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

describe('gateway audit', () => {
  let redis: TestRedis;
  // One database a test, so that each reads only its own records.
  const add = (db: number, text: string) =>
    redis.cli(['-n', String(db), 'XADD', 'tool-search:audit', '*', 'record', text]);

  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.dispose();
  });

  it('prints every record past a malformed one, and C1 and bidi characters escaped', async () => {
    add(1, record('before'));
    add(1, '{not json');
    add(1, '"a string"');
    add(1, record('evil\u009b31m\u202etxt.exe'));
    const run = await runCli(['audit', '--store', `${redis.url}/1`, '--count', '10']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(RAW);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['tool'] ?? 'malformed')).toEqual([
      'before',
      'malformed',
      'malformed',
      'evil\u009b31m\u202etxt.exe',
    ]);
    expect(lines[1]?.['malformed']).toMatch(/not JSON/);
    expect(lines[2]?.['malformed']).toMatch(/not an object/);
  }, 60_000);

  it('follows past a malformed record', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'audit', '--store', `${redis.url}/2`, '--count', '1', '--follow'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const until = async (probe: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!probe()) {
        if (Date.now() > deadline) throw new Error(`not seen in time; stdout: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    add(2, record('first'));
    await until(() => stdout.includes('"tool":"first"'));
    add(2, '{still not json');
    add(2, record('after'));
    await until(() => stdout.includes('"tool":"after"'));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 60_000);
});
