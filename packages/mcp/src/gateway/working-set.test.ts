import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectClient, textOf } from '../__fixtures__/clients.js';
import {
  handleOf,
  payloadOf,
  resultOf,
  startWorkingSetReplicas,
  type WorkingSetWorld,
} from '../__fixtures__/working-set.js';
import { WORKING_SET_ARGUMENT, WORKING_SET_TTL_MS } from './working-set.js';

// Hostile handles: working-set-hostile.test.ts.
describe('the working-set handle of the stateless (2026-07-28) view', () => {
  let world: WorkingSetWorld;
  beforeAll(async () => {
    world = await startWorkingSetReplicas();
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it("offers working_set on the modern list's bridge tools only, and leaves a session's bridge schemas as they are", async () => {
    const listed = await world.view(world.replicaA).listTools();
    const bridge = listed.tools.filter((tool) => tool.name.startsWith('tool_'));
    expect(bridge.map((tool) => tool.name).sort()).toEqual([
      'tool_call',
      'tool_describe',
      'tool_search',
    ]);
    for (const tool of bridge) {
      const properties = (tool.inputSchema as { properties: Record<string, unknown> }).properties;
      expect(properties[WORKING_SET_ARGUMENT], tool.name).toMatchObject({ type: 'string' });
      expect(tool.description).toContain(WORKING_SET_ARGUMENT);
    }
    const session = await connectClient(world.replicaA, { profile: 'files' });
    try {
      const tools = (await session.client.listTools()).tools;
      expect(JSON.stringify(tools)).not.toContain(WORKING_SET_ARGUMENT);
    } finally {
      await session.close();
    }
  });

  it('answers a handle on search and describe, naming the tools given in full, bound to the principal and profile', async () => {
    const alice = world.view(world.replicaA);
    const found = await world.run(alice, 'tool_search', { query: 'information about a file' });
    expect(found.isError ?? false, textOf(found)).toBe(false);
    const first = handleOf(found);
    // The text the model reads carries it too.
    expect(JSON.parse(textOf(found))[WORKING_SET_ARGUMENT]).toBe(first);
    expect(payloadOf(first)).toMatchObject({ p: 'alice', f: 'files', d: [] });
    const described = await world.run(alice, 'tool_describe', {
      name: 'get_file_info',
      [WORKING_SET_ARGUMENT]: first,
    });
    const second = payloadOf(handleOf(described));
    expect(second['d']).toEqual(['get_file_info']);
    // The earlier search is still held (learning needs it); the query's text is not.
    expect((second['s'] as { h: string[] }[])[0]!.h).toContain('get_file_info');
    expect(JSON.stringify(second)).not.toContain('information about');
    expect(second['e'] as number).toBeLessThanOrEqual(Date.now() + WORKING_SET_TTL_MS);
  });

  it('learns a search on one replica and the call on another through the handle, once, and not without it', async () => {
    const file = `${world.workspace.directory}/notes.txt`;
    const found = await world.run(world.view(world.replicaA), 'tool_search', {
      query: 'file zorblat',
      limit: 20,
    });
    const handle = handleOf(found);
    expect(textOf(found)).toContain('get_file_info');
    const before = world.learner.stats.recorded;
    // Every pair handed to the learner, counted or capped (a token is capped per term).
    const handed = () => world.learner.stats.recorded + world.learner.stats.ignored;
    const handedBefore = handed();

    // Without the handle, replica B has no search to attribute the call to.
    const bare = await world.run(world.view(world.replicaB), 'tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
    });
    expect(bare.isError ?? false, textOf(bare)).toBe(false);
    expect(bare._meta?.['tool-search/working_set']).toBeUndefined();
    expect(world.learner.stats.recorded).toBe(before);

    const called = await world.run(world.view(world.replicaB), 'tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
      [WORKING_SET_ARGUMENT]: handle,
    });
    expect(called.isError ?? false, textOf(called)).toBe(false);
    await vi.waitFor(() => expect(world.learner.stats.recorded).toBe(before + 1));
    const learned = (await world.learner.export('files')).profiles['files'] ?? {};
    expect(learned['get_file_info']).toMatchObject({ zorblat: 1 });
    // The answer hands back the next handle, where the search no longer leads to the tool.
    const next = payloadOf(handleOf(called));
    expect(JSON.stringify(next['s'])).not.toContain('get_file_info');

    // The old handle replayed (on either replica) leads to the tool no second time.
    for (const replica of [world.replicaA, world.replicaB]) {
      const again = await world.run(world.view(replica), 'tool_call', {
        name: 'get_file_info',
        arguments: { path: file },
        [WORKING_SET_ARGUMENT]: handle,
      });
      expect(again.isError ?? false).toBe(false);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(world.learner.stats.recorded).toBe(before + 1);
    expect(handed()).toBe(handedBefore + 1);
  });

  it('updates the learner a 2025 session of the profile ranks with', async () => {
    // Learned above from stateless traffic: a session of the same profile finds it first.
    const session = await connectClient(world.replicaA, { profile: 'files' });
    try {
      const answer = await session.bridge('tool_search', { query: 'zorblat' });
      const matches = answer['matches'] as { name: string }[];
      expect(matches[0]?.name).toBe('get_file_info');
    } finally {
      await session.close();
    }
  });

  it('asks by input_required with a handle, and the retry on another replica runs the approved call', async () => {
    const path = `${world.workspace.directory}/approved.txt`;
    const handle = handleOf(
      await world.run(world.view(world.replicaA), 'tool_search', {
        query: 'write file quuxly',
        limit: 20,
      }),
    );
    const args = { name: 'write_file', arguments: { path, content: 'ok' } };
    const asked = await world
      .view(world.replicaA)
      .callTool(
        { name: 'tool_call', arguments: { ...args, [WORKING_SET_ARGUMENT]: handle } },
        { ...world.call, elicitation: true },
      );
    if (!('question' in asked)) throw new Error(`not asked: ${JSON.stringify(asked)}`);
    // The question shows the final arguments, never the handle.
    expect(asked.question.message).not.toContain(WORKING_SET_ARGUMENT);
    const before = world.learner.stats.recorded;
    const retried = resultOf(
      await world.view(world.replicaB).callTool(
        { name: 'tool_call', arguments: { ...args, [WORKING_SET_ARGUMENT]: handle } },
        {
          ...world.call,
          elicitation: true,
          requestState: asked.question.requestState,
          inputResponses: { approval: { action: 'accept', content: { decision: 'allow-once' } } },
        },
      ),
    );
    expect(retried.isError ?? false, textOf(retried)).toBe(false);
    expect(handleOf(retried)).not.toBe(handle);
    await vi.waitFor(() => expect(world.learner.stats.recorded).toBe(before + 1));
    const learned = (await world.learner.export('files')).profiles['files'] ?? {};
    expect(learned['write_file']).toMatchObject({ quuxli: 1 });
  });

  it('takes the handle off before the hooks pipeline: the call runs with the same final arguments', async () => {
    const file = `${world.workspace.directory}/notes.txt`;
    const handle = handleOf(
      await world.run(world.view(world.replicaA), 'tool_search', { query: 'file info' }),
    );
    const ran = await world.run(world.view(world.replicaA), 'tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
      [WORKING_SET_ARGUMENT]: handle,
    });
    expect(ran.isError ?? false, textOf(ran)).toBe(false);
    const last = world.seen.filter((one) => one.name === 'get_file_info').at(-1);
    expect({ name: last?.name, arguments: last?.arguments }).toEqual({
      name: 'get_file_info',
      arguments: { path: file },
    });
    expect(JSON.stringify(world.seen)).not.toContain(WORKING_SET_ARGUMENT);
    // Nor does the activity feed (the console) see it on a search or describe.
    world.activity.length = 0;
    await world.run(world.view(world.replicaA), 'tool_describe', {
      name: 'get_file_info',
      [WORKING_SET_ARGUMENT]: handle,
    });
    expect(world.activity.map((entry) => entry.kind)).toContain('describe');
    expect(JSON.stringify(world.activity)).not.toContain(WORKING_SET_ARGUMENT);
    // null (a strict client's "none") is no handle.
    const none = await world.run(world.view(world.replicaA), 'tool_search', {
      query: 'file',
      [WORKING_SET_ARGUMENT]: null,
    });
    expect(none.isError ?? false, textOf(none)).toBe(false);
  });
});
