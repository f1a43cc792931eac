// The escape suite: every case is a program trying to get out of its sandbox or its
// budgets. Each must fail to escape: the program ends with a typed error (or a refused
// call it can catch), nothing runs that policy did not allow, and the host goes on.
import { createDispatcher } from '@tool-search/hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorld, withWorld } from './__fixtures__/world.js';
import { DEFAULT_PROGRAM_LIMITS } from './limits.js';
import { createProgramTool } from './program-tool.js';

const fast = { cpuTimeMs: 300, wallTimeMs: 3_000, callTimeoutMs: 1_000 };
const world = createWorld({ limits: fast });
afterAll(() => world.program.close());

const run = (source: string) => world.program.run({ source });

async function expectHostAlive() {
  const after = await run('return 6 * 7');
  expect(after).toMatchObject({ status: 'completed', result: 42 });
}

describe('escape suite: the interpreter', () => {
  it('stops an infinite loop at the CPU limit, and the next program runs', async () => {
    const result = await run('while (true) {}');
    expect(result).toMatchObject({ status: 'error', error: { code: 'program_cpu_limit' } });
    await expectHostAlive();
  });

  it('stops a loop that catches everything, since the interrupt cannot be caught', async () => {
    const result = await run('for (;;) { try { while (true) {} } catch (error) {} }');
    expect(result.error?.code).toBe('program_cpu_limit');
  });

  it('ends a memory bomb within the wall limit plus one second', async () => {
    // Native work (a fill of a large array) runs between the interpreter's interrupt
    // checks: the memory limit, the CPU limit or, at the latest, the wall limit ends it.
    const result = await run(
      'const hoard = []; while (true) hoard.push(new Array(100000).fill(7));',
    );
    expect(result.status).toBe('error');
    expect(['program_memory_limit', 'program_cpu_limit', 'program_wall_limit']).toContain(
      result.error?.code,
    );
    expect(result.durationMs).toBeLessThan(fast.wallTimeMs + 1_000);
    await expectHostAlive();
  });

  it('refuses one huge allocation with the memory limit', async () => {
    const result = await run("return 'x'.repeat(64 * 1024 * 1024).length");
    expect(result.error?.code).toBe('program_memory_limit');
  });

  it('stops deep recursion at the stack limit, and the host survives', async () => {
    const result = await run('function down(n) { return down(n + 1) + 1; } return down(0);');
    expect(result).toMatchObject({ status: 'error', error: { code: 'program_stack_overflow' } });
    await expectHostAlive();
  });

  it('stops a huge JSON.stringify by its memory or CPU limit', async () => {
    const result = await run(`
      const row = { text: 'y'.repeat(100000) };
      const rows = Array.from({ length: 5000 }, () => row);
      return JSON.stringify(rows).length;
    `);
    expect(result.status).toBe('error');
    expect(['program_memory_limit', 'program_cpu_limit']).toContain(result.error?.code);
  });

  it('has none of the host’s globals', async () => {
    const names = [
      'process',
      'require',
      'module',
      'exports',
      '__dirname',
      'global',
      'Buffer',
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'setTimeout',
      'setInterval',
      'setImmediate',
      'queueMicrotask',
      'WebAssembly',
      'SharedArrayBuffer',
      'Atomics',
      'std',
      'os',
      'Deno',
      'Bun',
      'performance',
      'navigator',
      'importScripts',
      'postMessage',
    ];
    const result = await run(
      `return ${JSON.stringify(names)}.filter((name) => typeof globalThis[name] !== 'undefined')`,
    );
    expect(result).toMatchObject({ status: 'completed', result: [] });
  });

  it('has no module loader: import() of a node module fails inside', async () => {
    const result = await run(`
      try { await import('node:fs'); return 'imported'; } catch (error) { return 'refused'; }
    `);
    expect(result.result).toBe('refused');
  });

  it('reaches only the guest’s own global through the Function constructor', async () => {
    const result = await run(`
      const viaFunction = Function('return typeof process')();
      const viaConstructor = (() => {}).constructor.constructor('return typeof require')();
      const viaEval = eval('typeof fetch');
      const global = Function('return this')();
      return [viaFunction, viaConstructor, viaEval, typeof global.process, typeof global.WebAssembly];
    `);
    expect(result.result).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
    ]);
  });

  it('cannot replace the tools object or the raw host function', async () => {
    const result = await run(`
      'use strict';
      const attempts = [];
      for (const name of ['tools', '__host', 'console']) {
        try { globalThis[name] = null; attempts.push(name + ' replaced'); } catch { attempts.push(name + ' kept'); }
      }
      return attempts;
    `);
    expect(result.result).toEqual(['tools kept', '__host kept', 'console kept']);
  });
});

describe('escape suite: the host function', () => {
  it('answers malformed requests through the raw host function with errors, and runs nothing', async () => {
    const ranBefore = world.log.ran.length;
    const result = await run(`
      const outcomes = [];
      const attempt = async (...args) => {
        const answer = JSON.parse(await __host(...args));
        outcomes.push(answer.ok ? 'ok' : answer.failure.status + ':' + (answer.failure.code ?? ''));
      };
      await attempt();
      await attempt(1, 2);
      await attempt('exec', '{}');
      await attempt('call', { name: 'weather_lookup' });
      await attempt('call', '{not json');
      await attempt('call', '[1, 2]');
      await attempt('call', JSON.stringify({ name: 5 }));
      await attempt('call', JSON.stringify({ name: 'weather_lookup', arguments: 'nope' }));
      await attempt('call', JSON.stringify({ name: 'weather_lookup', arguments: { city: 7 } }));
      await attempt('call', 'x'.repeat(${DEFAULT_PROGRAM_LIMITS.maxBytesOut + 1}));
      await attempt('describe', JSON.stringify({ name: { toString: 1 } }));
      return outcomes;
    `);
    expect(result.status).toBe('completed');
    expect(result.result).toEqual([
      'error:invalid_argument',
      'error:invalid_argument',
      'error:invalid_argument',
      'error:invalid_argument',
      'error:invalid_argument',
      'error:invalid_argument',
      'error:name_required',
      'error:invalid_json',
      'error:invalid_arguments',
      'error:invalid_argument',
      'error:name_required',
    ]);
    expect(world.log.ran.length).toBe(ranBefore);
  });

  it('counts malformed requests against the budgets, so they cannot keep the host busy', async () => {
    const result = await run(`
      const codes = new Set();
      for (let i = 0; i < 60; i++) codes.add(JSON.parse(await __host('call', '{bad')).failure.code);
      return [...codes];
    `);
    expect(result.result).toEqual(['invalid_argument', 'program_budget_spent']);
  });

  it('stops forwarding requests past every call and lookup the budgets allow', async () => {
    await withWorld({ limits: { maxCalls: 2, maxLookups: 2 } }, async (small) => {
      const result = await small.program.run({
        source: `
          const answers = [];
          for (let i = 0; i < 8; i++) answers.push(JSON.parse(await __host('search', '{"query":"x"}')).failure?.message ?? 'ok');
          return answers;
        `,
      });
      const answers = result.result as string[];
      expect(answers.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(answers.slice(2, 4).every((answer) => answer.includes('limits.maxLookups'))).toBe(
        true,
      );
      expect(answers.slice(4).every((answer) => answer.includes('more than 4 requests'))).toBe(
        true,
      );
    });
  });

  it('refuses recursion into tool_program and the bridge tools, running nothing', async () => {
    const ranBefore = world.log.ran.length;
    const result = await run(`
      const refused = [];
      for (const name of ['tool_program', 'tool_call', 'tool_search', 'tool_describe', ' tool_program ']) {
        try {
          await tools.call(name, { source: 'return 1', name: 'ticket_create', arguments: { title: 'x' } });
        } catch (error) {
          refused.push([error.status, error.code]);
        }
      }
      return refused;
    `);
    expect(result.result).toEqual(Array.from({ length: 5 }, () => ['denied', 'bridge_tool']));
    expect(world.log.ran.length).toBe(ranBefore);
  });

  it('refuses names outside the session, and audits the refusal as a program call', async () => {
    const result = await run(`
      try { await tools.rm_rf({ path: '/' }); } catch (error) { return [error.status, error.reason]; }
    `);
    expect(result.result).toEqual([
      'denied',
      "'rm_rf' is not available in this session. Use tool_search to find tools you can call.",
    ]);
    expect(result.calls).toEqual([
      { name: 'rm_rf', status: 'denied', reason: expect.stringContaining('not available') },
    ]);
    expect(world.log.audit.at(-1)).toMatchObject({
      tool: 'rm_rf',
      via: 'program',
      deniedBy: { kind: 'scope' },
    });
  });
});

describe('escape suite: tools and budgets', () => {
  it('cancels a hanging tool at the call limit: the program catches it and goes on', async () => {
    const result = await run(`
      try { await tools.slow_report({}); return 'answered'; }
      catch (error) { return [error.status, error.reason]; }
    `);
    expect(result.result).toEqual([
      'cancelled',
      `the call took longer than ${fast.callTimeoutMs} ms (limits.callTimeoutMs)`,
    ]);
    expect(result.calls).toMatchObject([{ name: 'slow_report', status: 'cancelled' }]);
  });

  it('stops a program still waiting at the wall limit, and the host goes on', async () => {
    await withWorld({ limits: { wallTimeMs: 500, callTimeoutMs: 60_000 } }, async (patient) => {
      const result = await patient.program.run({ source: 'await tools.slow_report({}); return 1' });
      expect(result).toMatchObject({ status: 'error', error: { code: 'program_wall_limit' } });
      expect(result.calls).toMatchObject([{ name: 'slow_report', status: 'cancelled' }]);
      const after = await patient.program.run({ source: 'return 2' });
      expect(after.result).toBe(2);
    });
  });

  it('refuses calls past the call budget', async () => {
    await withWorld({ limits: { maxCalls: 3 } }, async (small) => {
      const result = await small.program.run({
        source: `
          const outcomes = [];
          for (let i = 0; i < 5; i++) {
            try { await tools.weather_lookup({ city: 'c' + i }); outcomes.push('ok'); }
            catch (error) { outcomes.push(error.code); }
          }
          return outcomes;
        `,
      });
      expect(result.result).toEqual([
        'ok',
        'ok',
        'ok',
        'program_budget_spent',
        'program_budget_spent',
      ]);
      expect(small.log.ran).toHaveLength(3);
    });
  });

  it('refuses writes past the write budget, reads still going', async () => {
    await withWorld({ limits: { maxWrites: 2 } }, async (small) => {
      const result = await small.program.run({
        source: `
          const outcomes = [];
          for (const title of ['a', 'b', 'c']) {
            try { await tools.ticket_create({ title }); outcomes.push('ok'); }
            catch (error) { outcomes.push(error.code); }
          }
          await tools.weather_lookup({ city: 'Oslo' });
          return outcomes;
        `,
      });
      expect(result.result).toEqual(['ok', 'ok', 'program_budget_spent']);
      expect(small.log.ran.map((call) => call.name)).toEqual([
        'ticket_create',
        'ticket_create',
        'weather_lookup',
      ]);
    });
  });

  it('cuts an oversized return value and oversized logs to their documented sizes', async () => {
    const result = await run(`
      for (let i = 0; i < 400; i++) console.log('line ' + i + ' ' + 'z'.repeat(50));
      return 'q'.repeat(${DEFAULT_PROGRAM_LIMITS.maxResultChars * 3});
    `);
    expect(result.status).toBe('completed');
    expect(result.resultTruncated).toBe(true);
    expect(typeof result.result).toBe('string');
    expect((result.result as string).length).toBeLessThan(
      DEFAULT_PROGRAM_LIMITS.maxResultChars + 100,
    );
    const logged = result.logs.join('').length;
    expect(logged).toBeLessThan(DEFAULT_PROGRAM_LIMITS.maxLogChars + 100);
    expect(result.logs.at(-1)).toContain('logs cut at');
  });

  it('refuses results past the bytes-in budget', async () => {
    await withWorld({ limits: { maxBytesIn: 50_000 } }, async (small) => {
      const result = await small.program.run({
        source: `
          try { await tools.big_export({ kb: 100 }); return 'read'; }
          catch (error) { return error.code; }
        `,
      });
      expect(result.result).toBe('program_budget_spent');
    });
  });

  it('refuses a source over the size limit without running it', async () => {
    const result = await run(`return '${'s'.repeat(DEFAULT_PROGRAM_LIMITS.maxSourceBytes)}'`);
    expect(result.error?.code).toBe('program_source_too_large');
  });

  it('asks the approval about each call of a Promise.all on its own', async () => {
    const asked: unknown[] = [];
    const approving = createWorld({
      approval: {
        name: 'person',
        request: ({ call, via }) => {
          asked.push([call.arguments['title'], via]);
          return call.arguments['title'] === 'b' ? 'deny' : 'allow-once';
        },
      },
    });
    try {
      const result = await approving.program.run({
        source: `
          const settled = await Promise.allSettled(
            ['a', 'b', 'c'].map((title) => tools.ticket_create({ title })),
          );
          return settled.map((entry) => entry.status === 'fulfilled' ? entry.value.title : entry.reason.status);
        `,
      });
      expect(result.result).toEqual(['a', 'denied', 'c']);
      expect(asked).toHaveLength(3);
      expect(asked).toEqual(
        expect.arrayContaining([
          ['a', 'program'],
          ['b', 'program'],
          ['c', 'program'],
        ]),
      );
      expect(approving.log.ran.map((call) => call.arguments['title']).sort()).toEqual(['a', 'c']);
    } finally {
      await approving.program.close();
    }
  });
});

describe('escape suite: calls in flight', () => {
  it('keeps at most maxCallsInFlight calls running at once; the others wait their turn', async () => {
    let active = 0;
    let most = 0;
    // Each call holds until the test lets it go, so calls pile up.
    const held: (() => void)[] = [];
    const tool = {
      name: 'probe_lookup',
      inputSchema: { type: 'object' as const, properties: { n: { type: 'integer' } } },
      annotations: { readOnlyHint: true },
    };
    const dispatch = createDispatcher({
      execute: async (call) => {
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => held.push(resolve));
        active -= 1;
        return call.arguments['n'];
      },
    });
    const program = createProgramTool({
      tools: [tool],
      dispatch,
      poolSize: 1,
      limits: { maxCallsInFlight: 2 },
    });
    const until = async (ready: () => boolean) => {
      while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    try {
      const running = program.run({
        source:
          'return await Promise.all([0, 1, 2, 3, 4, 5].map((n) => tools.probe_lookup({ n })));',
      });
      for (let released = 0; released < 6; released++) {
        await until(() => held.length >= Math.min(2, 6 - released));
        held.shift()?.();
      }
      const result = await running;
      expect(result.result).toEqual([0, 1, 2, 3, 4, 5]);
      expect(most).toBe(2);
    } finally {
      await program.close();
    }
  });

  it('cancels the calls a program leaves running when it returns, and lists them', async () => {
    const result = await run('tools.slow_report({}); return "left early";');
    expect(result.result).toBe('left early');
    expect(result.calls).toEqual([
      {
        name: 'slow_report',
        status: 'cancelled',
        reason: 'the program ended before the call settled',
      },
    ]);
  });
});

describe('escape suite: lookups', () => {
  it('refuses searches and descriptions past the lookup budget, so a program cannot keep the host searching', async () => {
    await withWorld({ limits: { maxLookups: 3 } }, async (small) => {
      const result = await small.program.run({
        source: `
          const settled = await Promise.allSettled(
            Array.from({ length: 6 }, (_, index) => index % 2 ? tools.search('weather') : tools.describe('weather_lookup')),
          );
          return settled.map((entry) => entry.status === 'fulfilled' ? 'ok' : entry.reason.code);
        `,
      });
      expect(result.result).toEqual([
        'ok',
        'ok',
        'ok',
        'program_budget_spent',
        'program_budget_spent',
        'program_budget_spent',
      ]);
    });
  });
});
