import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createSearchLearner, type SearchLearner } from '@tool-search/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectClient, textOf } from '../__fixtures__/clients.js';
import { everythingInProcess } from '../__fixtures__/in-process.js';
import { tempWorkspace } from '../__fixtures__/servers.js';
import { filesystemInProcess } from '../__fixtures__/worker-server.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import { signState } from './signed-state.js';
import type { GatewayStatelessView, StatelessCallOutcome } from './stateless-session.js';
import type { GatewayActivity } from './types.js';
import { WORKING_SET_ARGUMENT, WORKING_SET_MAX_CHARS, WORKING_SET_TTL_MS } from './working-set.js';

const KEY = new Uint8Array(32).fill(7);

function resultOf(outcome: StatelessCallOutcome): CallToolResult {
  if (!('result' in outcome)) throw new Error('asked a question instead');
  return outcome.result;
}

/** The handle a bridge answer carries (in its structured content). */
function handleOf(result: CallToolResult): string {
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const fromMeta = result._meta?.['tool-search/working_set'];
  const handle = structured?.[WORKING_SET_ARGUMENT] ?? fromMeta;
  if (typeof handle !== 'string') throw new Error(`no handle in ${textOf(result)}`);
  return handle;
}

/** The JSON payload of a handle (readable, not changeable). */
function payloadOf(handle: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(handle.split('.')[0]!, 'base64url').toString('utf8'));
}

describe('the working-set handle of the stateless (2026-07-28) view', () => {
  let workspace: ReturnType<typeof tempWorkspace>;
  let pool: UpstreamPool;
  let learner: SearchLearner;
  let replicaA: GatewayServer;
  let replicaB: GatewayServer;
  const seen: { name: string; arguments: Record<string, unknown> }[] = [];
  const activity: GatewayActivity[] = [];
  const call = { requestId: 1, signal: new AbortController().signal };

  beforeAll(async () => {
    workspace = tempWorkspace();
    const config = parseGatewayConfig({
      mcpServers: {
        everything: everythingInProcess(),
        filesystem: filesystemInProcess(workspace.directory),
      },
      toolSearch: { enabled: 'on' },
      profiles: {
        files: { enabledToolsets: ['mcp-filesystem'] },
        tools: { enabledToolsets: ['mcp-everything'] },
      },
      learning: { enabled: true },
      approval: { require: ['write_file'], fallback: 'deny' },
    });
    pool = createUpstreamPool(config);
    await pool.start();
    // Two replicas sharing a store and its learner (as on one Redis) and the operator's key.
    learner = createSearchLearner();
    const store = createMemoryStore();
    replicaA = createGatewayServer({
      pool,
      config,
      contextWindow: 32_000,
      learner,
      store,
      onActivity: (entry) => activity.push(entry),
      // What the one hooks pipeline sees of each call.
      guardrails: [
        {
          name: 'seen',
          check: (seenCall) => {
            seen.push(structuredClone(seenCall));
            return { allow: true };
          },
        },
      ],
    });
    replicaB = createGatewayServer({ pool, config, contextWindow: 32_000, learner, store });
  }, 60_000);

  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await pool?.close();
    workspace?.cleanup();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const view = (gateway: GatewayServer, principal = 'alice', profile = 'files') =>
    gateway.statelessView({ principal, profile, stateKey: KEY });
  const run = async (
    target: GatewayStatelessView,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> => resultOf(await target.callTool({ name, arguments: args }, call));

  it("offers working_set on the modern list's bridge tools only, and leaves a session's bridge schemas as they are", async () => {
    const listed = await view(replicaA).listTools();
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
    const session = await connectClient(replicaA, { profile: 'files' });
    try {
      const tools = (await session.client.listTools()).tools;
      expect(JSON.stringify(tools)).not.toContain(WORKING_SET_ARGUMENT);
    } finally {
      await session.close();
    }
  });

  it('answers a handle on search and describe, naming the tools given in full, bound to the principal and profile', async () => {
    const alice = view(replicaA);
    const found = await run(alice, 'tool_search', { query: 'information about a file' });
    expect(found.isError ?? false, textOf(found)).toBe(false);
    const first = handleOf(found);
    // The text the model reads carries it too.
    expect(JSON.parse(textOf(found))[WORKING_SET_ARGUMENT]).toBe(first);
    expect(payloadOf(first)).toMatchObject({ p: 'alice', f: 'files', d: [] });
    const described = await run(alice, 'tool_describe', {
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
    const file = `${workspace.directory}/notes.txt`;
    const found = await run(view(replicaA), 'tool_search', {
      query: 'file zorblat',
      limit: 20,
    });
    const handle = handleOf(found);
    expect(textOf(found)).toContain('get_file_info');
    const before = learner.stats.recorded;
    // Every pair handed to the learner, counted or capped (a token is capped per term).
    const handed = () => learner.stats.recorded + learner.stats.ignored;
    const handedBefore = handed();

    // Without the handle, replica B has no search to attribute the call to.
    const bare = await run(view(replicaB), 'tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
    });
    expect(bare.isError ?? false, textOf(bare)).toBe(false);
    expect(bare._meta?.['tool-search/working_set']).toBeUndefined();
    expect(learner.stats.recorded).toBe(before);

    const called = await run(view(replicaB), 'tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
      [WORKING_SET_ARGUMENT]: handle,
    });
    expect(called.isError ?? false, textOf(called)).toBe(false);
    await vi.waitFor(() => expect(learner.stats.recorded).toBe(before + 1));
    const learned = (await learner.export('files')).profiles['files'] ?? {};
    expect(learned['get_file_info']).toMatchObject({ zorblat: 1 });
    // The answer hands back the next handle, where the search no longer leads to the tool.
    const next = payloadOf(handleOf(called));
    expect(JSON.stringify(next['s'])).not.toContain('get_file_info');

    // The old handle replayed (on either replica) leads to the tool no second time.
    for (const replica of [replicaA, replicaB]) {
      const again = await run(view(replica), 'tool_call', {
        name: 'get_file_info',
        arguments: { path: file },
        [WORKING_SET_ARGUMENT]: handle,
      });
      expect(again.isError ?? false).toBe(false);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(learner.stats.recorded).toBe(before + 1);
    expect(handed()).toBe(handedBefore + 1);
  });

  it('updates the learner a 2025 session of the profile ranks with', async () => {
    // Learned above from stateless traffic: a session of the same profile finds it first.
    const session = await connectClient(replicaA, { profile: 'files' });
    try {
      const answer = await session.bridge('tool_search', { query: 'zorblat' });
      const matches = answer['matches'] as { name: string }[];
      expect(matches[0]?.name).toBe('get_file_info');
    } finally {
      await session.close();
    }
  });

  it('asks by input_required with a handle, and the retry on another replica runs the approved call', async () => {
    const path = `${workspace.directory}/approved.txt`;
    const handle = handleOf(
      await run(view(replicaA), 'tool_search', { query: 'write file quuxly', limit: 20 }),
    );
    const args = { name: 'write_file', arguments: { path, content: 'ok' } };
    const asked = await view(replicaA).callTool(
      { name: 'tool_call', arguments: { ...args, [WORKING_SET_ARGUMENT]: handle } },
      { ...call, elicitation: true },
    );
    if (!('question' in asked)) throw new Error(`not asked: ${JSON.stringify(asked)}`);
    // The question shows the final arguments, never the handle.
    expect(asked.question.message).not.toContain(WORKING_SET_ARGUMENT);
    const before = learner.stats.recorded;
    const retried = resultOf(
      await view(replicaB).callTool(
        { name: 'tool_call', arguments: { ...args, [WORKING_SET_ARGUMENT]: handle } },
        {
          ...call,
          elicitation: true,
          requestState: asked.question.requestState,
          inputResponses: { approval: { action: 'accept', content: { decision: 'allow-once' } } },
        },
      ),
    );
    expect(retried.isError ?? false, textOf(retried)).toBe(false);
    expect(handleOf(retried)).not.toBe(handle);
    await vi.waitFor(() => expect(learner.stats.recorded).toBe(before + 1));
    const learned = (await learner.export('files')).profiles['files'] ?? {};
    expect(learned['write_file']).toMatchObject({ quuxli: 1 });
  });

  it('takes the handle off before the hooks pipeline: the call runs with the same final arguments', async () => {
    const file = `${workspace.directory}/notes.txt`;
    const handle = handleOf(await run(view(replicaA), 'tool_search', { query: 'file info' }));
    const ran = await run(view(replicaA), 'tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
      [WORKING_SET_ARGUMENT]: handle,
    });
    expect(ran.isError ?? false, textOf(ran)).toBe(false);
    const last = seen.filter((one) => one.name === 'get_file_info').at(-1);
    expect({ name: last?.name, arguments: last?.arguments }).toEqual({
      name: 'get_file_info',
      arguments: { path: file },
    });
    expect(JSON.stringify(seen)).not.toContain(WORKING_SET_ARGUMENT);
    // Nor does the activity feed (the console) see it on a search or describe.
    activity.length = 0;
    await run(view(replicaA), 'tool_describe', {
      name: 'get_file_info',
      [WORKING_SET_ARGUMENT]: handle,
    });
    expect(activity.map((entry) => entry.kind)).toContain('describe');
    expect(JSON.stringify(activity)).not.toContain(WORKING_SET_ARGUMENT);
    // null (a strict client's "none") is no handle.
    const none = await run(view(replicaA), 'tool_search', {
      query: 'file',
      [WORKING_SET_ARGUMENT]: null,
    });
    expect(none.isError ?? false, textOf(none)).toBe(false);
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
        await run(view(replicaA, 'bob'), 'tool_search', { query: 'file secretword' }),
      );
      const stolen = await run(view(replicaA, 'alice'), 'tool_search', {
        query: 'file',
        [WORKING_SET_ARGUMENT]: handle,
      });
      refusedWith(stolen, /issued to another client/);
      const shown = JSON.stringify(stolen);
      for (const leaked of ['bob', 'secretword', 'get_file_info', handle.slice(0, 20)]) {
        expect(shown).not.toContain(leaked);
      }
    });

    it("refuses another profile's handle for the same principal", async () => {
      const handle = handleOf(
        await run(view(replicaA, 'carol', 'tools'), 'tool_search', { query: 'echo' }),
      );
      const other = await run(view(replicaA, 'carol', 'files'), 'tool_describe', {
        name: 'get_file_info',
        [WORKING_SET_ARGUMENT]: handle,
      });
      refusedWith(other, /another profile/);
    });

    it('refuses a forged, altered, expired, oversize or non-text handle; the call does not run', async () => {
      const alice = view(replicaA);
      const handle = handleOf(await run(alice, 'tool_search', { query: 'file' }));
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
          await run(alice, 'tool_call', {
            name: 'get_file_info',
            arguments: { path: workspace.directory },
            [WORKING_SET_ARGUMENT]: bad,
          }),
          /not one this gateway issued/,
        );
      }
      refusedWith(
        await run(alice, 'tool_search', { query: 'file', [WORKING_SET_ARGUMENT]: { d: [] } }),
        /must be the text/,
      );
      vi.useFakeTimers({ now: Date.now() + WORKING_SET_TTL_MS + 1000, toFake: ['Date'] });
      refusedWith(
        await run(alice, 'tool_search', { query: 'file', [WORKING_SET_ARGUMENT]: handle }),
        /expired/,
      );
    });

    it("re-checks the scope: a handle naming tools outside the profile's scope gives them nothing", async () => {
      const echo = (await view(replicaA, 'alice', 'tools').listTools()).tools.length;
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
      const before = learner.stats.recorded;
      const out = await run(view(replicaA), 'tool_call', {
        name: 'echo',
        arguments: { message: 'hi' },
        [WORKING_SET_ARGUMENT]: handle,
      });
      expect(out.isError).toBe(true);
      const next = payloadOf(handleOf(out));
      expect(next['d']).toEqual(['get_file_info']);
      expect(next['s']).toEqual([]);
      expect(learner.stats.recorded).toBe(before);
    });

    it('keeps a handle bounded however much is searched and described', async () => {
      const alice = view(replicaA);
      let handle = handleOf(await run(alice, 'tool_search', { query: 'file' }));
      for (let index = 0; index < 12; index++) {
        handle = handleOf(
          await run(alice, 'tool_search', {
            query: `file directory read write ${'q'.repeat(index)}`,
            limit: 20,
            [WORKING_SET_ARGUMENT]: handle,
          }),
        );
      }
      const all = await run(alice, 'tool_search', {
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
