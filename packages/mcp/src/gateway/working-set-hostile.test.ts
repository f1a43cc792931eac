import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import {
  handleOf,
  KEY,
  payloadOf,
  startWorkingSetReplicas,
  type WorkingSetWorld,
} from '../__fixtures__/working-set.js';
import { signState } from './signed-state.js';
import { WORKING_SET_ARGUMENT, WORKING_SET_MAX_CHARS, WORKING_SET_TTL_MS } from './working-set.js';

describe('hostile working-set handles on the stateless (2026-07-28) view', () => {
  let world: WorkingSetWorld;
  beforeAll(async () => {
    world = await startWorkingSetReplicas();
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('hostile handles', () => {
    const refusedWith = (result: CallToolResult, pattern: RegExp) => {
      expect(result.isError).toBe(true);
      expect(result._meta?.['tool-search/error']).toBe('invalid_argument');
      expect(result.structuredContent).toMatchObject({
        code: 'invalid_argument',
        field: WORKING_SET_ARGUMENT,
      });
      expect(textOf(result)).toMatch(pattern);
      expect(textOf(result)).toMatch(/without working_set/);
    };

    it("refuses another principal's handle without showing anything of it", async () => {
      const handle = handleOf(
        await world.run(world.view(world.replicaA, 'bob'), 'tool_search', {
          query: 'file secretword',
        }),
      );
      const stolen = await world.run(world.view(world.replicaA, 'alice'), 'tool_search', {
        query: 'file',
        [WORKING_SET_ARGUMENT]: handle,
      });
      refusedWith(stolen, /issued to another client/);
      const shown = JSON.stringify(stolen);
      for (const leaked of ['bob', 'secretword', 'get_file_info', handle.slice(0, 20)]) {
        expect(shown).not.toContain(leaked);
      }
      // The attempt is in the audit trail, under the client that made it.
      await vi.waitFor(async () => {
        const entries = await world.store.readAudit({ count: 1000 });
        expect(
          entries.some(
            (entry) =>
              entry.record?.sessionId === 'stateless:alice' &&
              entry.record.deniedBy?.name === WORKING_SET_ARGUMENT &&
              /another client/.test(String(entry.record.reason)),
          ),
        ).toBe(true);
      });
    });

    it("refuses another profile's handle for the same principal", async () => {
      const handle = handleOf(
        await world.run(world.view(world.replicaA, 'carol', 'tools'), 'tool_search', {
          query: 'echo',
        }),
      );
      const other = await world.run(world.view(world.replicaA, 'carol', 'files'), 'tool_describe', {
        name: 'get_file_info',
        [WORKING_SET_ARGUMENT]: handle,
      });
      refusedWith(other, /another profile/);
    });

    it('refuses a forged, altered, expired, oversize or non-text handle; the call does not run', async () => {
      const alice = world.view(world.replicaA);
      const handle = handleOf(await world.run(alice, 'tool_search', { query: 'file' }));
      const [body, signature] = handle.split('.') as [string, string];
      const altered = Buffer.from(
        JSON.stringify({ ...payloadOf(handle), p: 'alice', d: ['write_file'] }),
      ).toString('base64url');
      const forged = signState(
        new Uint8Array(32).fill(9),
        'working-set',
        payloadOf(handle) as never,
      );
      const approval = signState(KEY, 'approval', payloadOf(handle) as never);
      for (const bad of [
        `${altered}.${signature}`,
        `${body}.${signature.slice(0, -2)}AA`,
        forged,
        approval,
        'x'.repeat(WORKING_SET_MAX_CHARS + 1),
        'garbage',
      ]) {
        refusedWith(
          await world.run(alice, 'tool_call', {
            name: 'get_file_info',
            arguments: { path: world.workspace.directory },
            [WORKING_SET_ARGUMENT]: bad,
          }),
          /not one this gateway issued/,
        );
      }
      refusedWith(
        await world.run(alice, 'tool_search', { query: 'file', [WORKING_SET_ARGUMENT]: { d: [] } }),
        /must be the text/,
      );
      vi.useFakeTimers({ now: Date.now() + WORKING_SET_TTL_MS + 1000, toFake: ['Date'] });
      refusedWith(
        await world.run(alice, 'tool_search', { query: 'file', [WORKING_SET_ARGUMENT]: handle }),
        /expired/,
      );
    });

    it("re-checks the scope: a handle naming tools outside the profile's scope gives them nothing", async () => {
      const echo = (await world.view(world.replicaA, 'alice', 'tools').listTools()).tools.length;
      expect(echo).toBeGreaterThan(0);
      // A handle signed with the operator's key for this principal and profile, naming tools
      // of another scope (as after a reload narrowed the profile).
      const handle = signState(KEY, 'working-set', {
        v: 1,
        p: 'alice',
        e: Date.now() + 60_000,
        f: 'files',
        d: ['echo', 'get_file_info'],
        s: [{ i: 'x', t: ['sneaki'], h: ['echo', 'get-sum'], c: 0 }],
      } as never);
      const before = world.learner.stats.recorded;
      const out = await world.run(world.view(world.replicaA), 'tool_call', {
        name: 'echo',
        arguments: { message: 'hi' },
        [WORKING_SET_ARGUMENT]: handle,
      });
      expect(out.isError).toBe(true);
      const next = payloadOf(handleOf(out));
      expect(next['d']).toEqual(['get_file_info']);
      expect(next['s']).toEqual([]);
      expect(world.learner.stats.recorded).toBe(before);
    });

    it('keeps a handle bounded however much is searched and described', async () => {
      const alice = world.view(world.replicaA);
      let handle = handleOf(await world.run(alice, 'tool_search', { query: 'file' }));
      for (let index = 0; index < 12; index++) {
        handle = handleOf(
          await world.run(alice, 'tool_search', {
            query: `file directory read write ${'q'.repeat(index)}`,
            limit: 20,
            [WORKING_SET_ARGUMENT]: handle,
          }),
        );
      }
      const all = await world.run(alice, 'tool_search', {
        query: 'select:read_text_file,write_file,list_directory,get_file_info,directory_tree',
        [WORKING_SET_ARGUMENT]: handle,
      });
      handle = handleOf(all);
      expect(handle.length).toBeLessThanOrEqual(WORKING_SET_MAX_CHARS);
      const payload = payloadOf(handle);
      expect((payload['s'] as unknown[]).length).toBeLessThanOrEqual(8);
      expect(payload['d']).toEqual(expect.arrayContaining(['write_file', 'get_file_info']));
    });
  });
});
