import { afterAll, describe, expect, it } from 'vitest';
import { createWorld, worldTools } from './__fixtures__/world.js';

const world = createWorld();
afterAll(() => world.program.close());

describe('createProgramTool', () => {
  it('runs a program that searches, describes and calls tools, and answers its value, logs and calls', async () => {
    const result = await world.program.run({
      source: `
        const hits = await tools.search('weather city');
        const declaration = await tools.describe(hits[0].name);
        const oslo = await tools.call('weather_lookup', { city: 'Oslo' });
        const rome = await tools.weather_lookup({ city: 'Rome' });
        console.log('found', hits[0].name);
        return { first: hits[0].name, declaration, temperatures: [oslo.celsius, rome.celsius] };
      `,
    });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('completed');
    expect(result.result).toMatchObject({ first: 'weather_lookup', temperatures: [4, 4] });
    expect((result.result as { declaration: string }).declaration).toContain(
      'declare function weather_lookup(args: {',
    );
    expect(result.logs).toEqual(['found weather_lookup']);
    expect(result.calls).toEqual([
      { name: 'weather_lookup', status: 'ok' },
      { name: 'weather_lookup', status: 'ok' },
    ]);
    expect(world.log.audit.map((record) => [record.tool, record.via, record.programId])).toEqual([
      ['weather_lookup', 'program', result.programId],
      ['weather_lookup', 'program', result.programId],
    ]);
  });
});

describe('createProgramTool: input and options', () => {
  it('answers an input without a source as an error result', async () => {
    for (const input of [undefined, null, {}, { source: 5 }, { source: '  ' }, 'return 1']) {
      const result = await world.program.run(input);
      expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_argument' } });
    }
  });

  it('answers a syntax error, a throw and a stalled program with their codes', async () => {
    expect((await world.program.run({ source: 'return (' })).error?.code).toBe(
      'program_syntax_error',
    );
    const threw = await world.program.run({ source: "throw new TypeError('nope')" });
    expect(threw.error).toEqual({ code: 'program_threw', message: 'TypeError: nope' });
    const stalled = await world.program.run({ source: 'await new Promise(() => {})' });
    expect(stalled.error?.code).toBe('program_stalled');
    const cyclic = await world.program.run({ source: 'const a = {}; a.a = a; return a;' });
    expect(cyclic.error?.code).toBe('program_output_invalid');
  });

  it('stops a program when the caller’s signal aborts', async () => {
    const controller = new AbortController();
    const running = world.program.run(
      { source: 'await tools.slow_report({}); return 1' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    const result = await running;
    expect(result.error?.code).toBe('program_cancelled');
  });

  it('passes the session id to the dispatcher with each nested call', async () => {
    await world.program.run(
      { source: "return await tools.weather_lookup({ city: 'Oslo' })" },
      { sessionId: 'session-7' },
    );
    expect(world.log.audit.at(-1)).toMatchObject({ sessionId: 'session-7', via: 'program' });
  });

  it('reaches core tools too, through the same resolution and dispatch', async () => {
    const result = await world.program.run({
      source: "return await tools.shell_run({ command: 'ls' })",
    });
    expect(result.result).toEqual({ ran: 'shell_run' });
  });

  it('describes itself for the model, with its limits', () => {
    expect(world.program.definition.name).toBe('tool_program');
    expect(world.program.definition.description).toContain('50 tool calls');
    expect(world.program.definition.inputSchema.required).toEqual(['source']);
  });

  it('refuses options without a dispatcher or tools', async () => {
    const { createProgramTool } = await import('./program-tool.js');
    expect(() => createProgramTool({ tools: [] } as never)).toThrow(/dispatch/);
    expect(() => createProgramTool({ dispatch: async () => ({}) } as never)).toThrow(/tools/);
    expect(() =>
      createProgramTool({ tools: [], dispatch: world.dispatch, limits: { maxCalls: -1 } }),
    ).toThrow(/maxCalls/);
  });
});

describe('createProgramTool: programs at once', () => {
  it('runs at most maxConcurrentPrograms programs at once; the others wait and then run', async () => {
    const { createProgramTool } = await import('./program-tool.js');
    let active = 0;
    let most = 0;
    // Each nested call holds until the test lets it go, so programs pile up.
    const held: (() => void)[] = [];
    const tool = {
      name: 'probe_wait',
      inputSchema: { type: 'object' as const },
      annotations: { readOnlyHint: true },
    };
    const program = createProgramTool({
      tools: [tool],
      dispatch: async (call) => {
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => held.push(resolve));
        active -= 1;
        return { status: 'ok', call, result: 'waited' };
      },
      poolSize: 1,
      maxConcurrentPrograms: 2,
    });
    const until = async (ready: () => boolean) => {
      while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    try {
      const runs = Array.from({ length: 5 }, () =>
        program.run({ source: 'return await tools.probe_wait({})' }),
      );
      for (let released = 0; released < 5; released++) {
        await until(() => held.length >= Math.min(2, 5 - released));
        held.shift()?.();
      }
      const results = await Promise.all(runs);
      expect(results.map((result) => result.result)).toEqual(Array(5).fill('waited'));
      expect(most).toBe(2);
    } finally {
      await program.close();
    }
  });
});

describe('createProgramTool: a tool list that fails', () => {
  it('answers an error result when the tools cannot be had or assembled', async () => {
    const { createProgramTool } = await import('./program-tool.js');
    const broken = createProgramTool({
      tools: () => {
        throw new Error('the registry is down');
      },
      dispatch: world.dispatch,
      poolSize: 1,
    });
    const twice = createProgramTool({
      tools: [worldTools[0]!, worldTools[0]!],
      dispatch: world.dispatch,
      poolSize: 1,
    });
    try {
      const down = await broken.run({ source: 'return 1' });
      expect(down.error).toMatchObject({
        code: 'invalid_argument',
        message: expect.stringContaining('the registry is down'),
      });
      const duplicate = await twice.run({ source: 'return 1' });
      expect(duplicate.error?.message).toContain('appears more than once');
    } finally {
      await broken.close();
      await twice.close();
    }
  });
});
