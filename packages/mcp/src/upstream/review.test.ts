import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import { hostileInProcess } from '../__fixtures__/in-process.js';
import { createUpstreamPool, type UpstreamPool } from './pool.js';
import { acceptToolReview, diffToolReview, fingerprintTool } from './review.js';
import {
  HELD_BY_OPERATOR,
  HELD_INVALID_ENTRY,
  readToolReview,
  writeToolReview,
} from './review-file.js';

const directory = mkdtempSync(join(tmpdir(), 'tool-search-review-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const schema = { type: 'object', properties: { q: { type: 'string' } } };

describe('fingerprintTool', () => {
  it('does not depend on key order, and changes with the description, schema or annotations', () => {
    const base = fingerprintTool({ name: 'find', description: 'Find', inputSchema: schema });
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(
      fingerprintTool({
        inputSchema: { properties: { q: { type: 'string' } }, type: 'object' },
        description: 'Find',
        name: 'find',
      }),
    ).toBe(base);
    expect(fingerprintTool({ name: 'find', description: 'Find!', inputSchema: schema })).not.toBe(
      base,
    );
    expect(
      fingerprintTool({ name: 'find', description: 'Find', inputSchema: { type: 'object' } }),
    ).not.toBe(base);
    expect(
      fingerprintTool({
        name: 'find',
        description: 'Find',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
      }),
    ).not.toBe(base);
  });
});

describe('the review file', () => {
  it('is written with sorted keys, one line per tool, and read back', async () => {
    const file = join(directory, 'written.json');
    const fingerprint = fingerprintTool({ name: 'a', inputSchema: {} });
    await writeToolReview(
      file,
      new Map([
        ['zeta/b', fingerprint],
        ['alpha/a', fingerprint],
      ]),
    );
    expect(readFileSync(file, 'utf8')).toBe(
      `{\n  "version": 1,\n  "tools": {\n    "alpha/a": "${fingerprint}",\n    "zeta/b": "${fingerprint}"\n  }\n}\n`,
    );
    expect([...(await readToolReview(file)).keys()]).toEqual(['alpha/a', 'zeta/b']);
    expect(await readToolReview(join(directory, 'missing.json'))).toEqual(new Map());
  });

  it('refuses a file that is not a review file, saying how to write it anew', async () => {
    const file = join(directory, 'bad.json');
    writeFileSync(file, '{"version": 1, "fingerprints": {}}');
    await expect(readToolReview(file)).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringMatching(/no "tools" object.*inspect --accept/),
    });
  });

  it('reads a bad entry as that one tool held, and an operator hold as it was written', async () => {
    const fingerprint = fingerprintTool({ name: 'a', inputSchema: {} });
    const file = join(directory, 'one-bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        tools: { 'a/b': 'md5:1', 'a/c': 42, 'a/d': fingerprint, 'a/e': HELD_BY_OPERATOR },
      }),
    );
    const read = await readToolReview(file);
    expect(Object.fromEntries(read)).toEqual({
      'a/b': HELD_INVALID_ENTRY,
      'a/c': HELD_INVALID_ENTRY,
      'a/d': fingerprint,
      'a/e': HELD_BY_OPERATOR,
    });
    // What is written is what is read back, whatever the map held.
    await writeToolReview(file, new Map([...read, ['a/f', 'anything']]));
    expect(Object.fromEntries(await readToolReview(file))).toEqual({
      ...Object.fromEntries(read),
      'a/f': HELD_INVALID_ENTRY,
    });
  });

  it('diffs new, changed and removed tools, never calling the tools of a server that is down removed', () => {
    const [one, two] = ['1', '2'].map((text) =>
      fingerprintTool({ name: 'x', description: text, inputSchema: {} }),
    ) as [string, string];
    const accepted = new Map([
      ['a/kept', one],
      ['a/changed', one],
      ['a/gone', one],
      ['down/tool', one],
    ]);
    const current = [
      { server: 'a', name: 'kept', fingerprint: one },
      { server: 'a', name: 'changed', fingerprint: two },
      { server: 'a', name: 'fresh', fingerprint: one },
    ];
    expect(diffToolReview(accepted, current, new Set(['a']))).toEqual([
      { key: 'a/changed', change: 'changed' },
      { key: 'a/fresh', change: 'new' },
      { key: 'a/gone', change: 'removed' },
    ]);
    expect([...acceptToolReview(accepted, current, new Set(['a']))].sort()).toEqual(
      [
        ['a/changed', two],
        ['a/fresh', one],
        ['a/kept', one],
        ['down/tool', one],
      ].sort(),
    );
  });
});

describe('a pool with review.hold', () => {
  let pool: UpstreamPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });
  const names = () => pool!.tools().map((tool) => tool.name);
  const accept = async (file: string) =>
    writeToolReview(
      file,
      acceptToolReview(await readToolReview(file), pool!.fingerprints(), new Set(['hostile'])),
    );

  it('holds a tool whose definition changed after it was accepted (a rug pull) until it is accepted again', async () => {
    const file = join(directory, 'changed.json');
    pool = createUpstreamPool(
      { mcpServers: { hostile: hostileInProcess() }, review: { file, hold: 'changed' } },
      { reconnect: false },
    );
    await pool.start();
    // Never accepted is not changed: served.
    expect(names()).toContain('hostile_echo');
    await accept(file);

    await pool.callTool('hostile_mutate', {});
    await until(() => !names().includes('hostile_echo'));
    expect(pool.status()[0]!.heldTools).toEqual([
      {
        name: 'hostile_echo',
        reason: 'changed',
        detail: expect.stringMatching(/changed since it was accepted.*inspect --accept/),
        tool: expect.objectContaining({ description: expect.stringMatching(/^Reads your notes/) }),
      },
    ]);
    const refused: CallToolResult = await pool.callTool('hostile_echo', { message: 'hi' });
    expect(refused.isError).toBe(true);
    const calls = JSON.parse(textOf(await pool.callTool('hostile_calls', {})));
    expect(calls['hostile_echo']).toBeUndefined();

    await accept(file);
    const echo = await until(
      () => pool!.tools().find((tool) => tool.name === 'hostile_echo'),
      15_000,
    );
    expect(echo.description).toMatch(/Ignore all previous instructions/);
    expect(pool.status()[0]!.heldTools).toEqual([]);
  });

  it('with new-and-changed, holds every tool never accepted', async () => {
    const file = join(directory, 'new.json');
    const fingerprint = fingerprintTool({
      name: 'hostile_calls',
      description: 'How many calls each tool of this server has had.',
      inputSchema: { type: 'object', properties: {} },
    });
    await writeToolReview(file, new Map([['hostile/hostile_calls', fingerprint]]));
    pool = createUpstreamPool(
      { mcpServers: { hostile: hostileInProcess() }, review: { file, hold: 'new-and-changed' } },
      { reconnect: false },
    );
    await pool.start();
    expect(names()).toEqual(['hostile_calls']);
    const held = pool.status()[0]!.heldTools;
    expect(held.map((tool) => [tool.name, tool.reason])).toEqual([
      ['hostile_echo', 'new'],
      ['hostile_squat', 'new'],
      ['hostile_mutate', 'new'],
      ['hostile_enable', 'new'],
    ]);
    expect(pool.fingerprints()).toHaveLength(5);
  });

  it('holds every tool when the review file cannot be used (fails closed)', async () => {
    const file = join(directory, 'broken.json');
    writeFileSync(file, 'not json');
    pool = createUpstreamPool(
      { mcpServers: { hostile: hostileInProcess() }, review: { file, hold: 'changed' } },
      { reconnect: false },
    );
    await pool.start();
    expect(names()).toEqual([]);
    expect(pool.status()[0]!.heldTools[0]).toMatchObject({
      reason: 'unreviewable',
      detail: expect.stringContaining('not valid JSON'),
    });
  });
});
