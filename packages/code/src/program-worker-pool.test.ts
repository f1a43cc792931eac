import { createDispatcher } from '@tool-search/hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { type WorldLog, worldExecute, worldTools } from './__fixtures__/world.js';
import { createProgramTool } from './program-tool.js';
import { createProgramWorkerPool, type ProgramWorkerPool } from './program-worker-pool.js';

function dispatcherOf(log: WorldLog) {
  return createDispatcher({
    execute: worldExecute(log),
    resolveTool: (name) => worldTools.find((tool) => tool.name === name),
  });
}

describe('createProgramWorkerPool', () => {
  const workers = createProgramWorkerPool({ size: 1, maxConcurrentPrograms: 2 });
  afterAll(() => workers.close());

  it('serves the programs of several tools, each over its own tools and dispatcher', async () => {
    const first: WorldLog = { ran: [], audit: [] };
    const second: WorldLog = { ran: [], audit: [] };
    const one = createProgramTool({
      tools: worldTools,
      dispatch: dispatcherOf(first),
      pool: workers,
    });
    const other = createProgramTool({
      tools: worldTools.filter((tool) => tool.name !== 'weather_lookup'),
      dispatch: dispatcherOf(second),
      pool: workers,
    });
    const [a, b] = await Promise.all([
      one.run({ source: "return (await tools.weather_lookup({ city: 'Oslo' })).celsius" }),
      other.run({
        source:
          "try { await tools.call('weather_lookup', { city: 'Oslo' }) } catch (error) { return error.status }",
      }),
    ]);
    expect(a.result).toBe(4);
    expect(b.result).toBe('denied');
    expect(first.ran.map((call) => call.name)).toEqual(['weather_lookup']);
    expect(second.ran).toEqual([]);
    // A tool's close leaves the shared pool running for the others.
    await one.close();
    expect((await other.run({ source: 'return 1 + 1' })).result).toBe(2);
  });

  it("runs a program's nested calls through the run's own dispatcher when it gives one", async () => {
    const tool: WorldLog = { ran: [], audit: [] };
    const run: WorldLog = { ran: [], audit: [] };
    const program = createProgramTool({
      tools: worldTools,
      dispatch: dispatcherOf(tool),
      pool: workers,
    });
    const result = await program.run(
      { source: "return (await tools.call('weather_lookup', { city: 'Rome' })).city" },
      { dispatch: dispatcherOf(run) },
    );
    expect(result.result).toBe('Rome');
    expect(tool.ran).toEqual([]);
    expect(run.ran).toEqual([{ name: 'weather_lookup', arguments: { city: 'Rome' } }]);
  });

  it('refuses options that are not positive integers and pools it did not make', () => {
    expect(() => createProgramWorkerPool({ size: 0 })).toThrow(/size must be a positive integer/);
    expect(() => createProgramWorkerPool({ workerHeapMb: 1.5 })).toThrow(/workerHeapMb/);
    expect(() =>
      createProgramTool({
        tools: worldTools,
        dispatch: dispatcherOf({ ran: [], audit: [] }),
        pool: { warm: async () => {}, close: async () => {} } as unknown as ProgramWorkerPool,
      }),
    ).toThrow(/pool must come from createProgramWorkerPool/);
  });
});
