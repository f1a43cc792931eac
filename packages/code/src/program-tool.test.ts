import { afterAll, describe, expect, it } from 'vitest';
import { createWorld } from './__fixtures__/world.js';

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
