// The program policy through the real dispatcher and a real program: read-only tools by
// default, a list of others, and never a call that did not come from a program.
import { describe, expect, it } from 'vitest';
import { createWorld, withWorld, worldTools } from './__fixtures__/world.js';
import { createProgramPolicy } from './program-policy.js';

describe('createProgramPolicy', () => {
  it('lets programs call read-only tools and denies writes, audited as the guardrail', async () => {
    await withWorld({ guardrails: [createProgramPolicy()] }, async (world) => {
      const result = await world.program.run({
        source: `
          const weather = await tools.weather_lookup({ city: 'Oslo' });
          try { await tools.ticket_create({ title: 'x' }); } catch (error) { return [weather.city, error.status, error.deniedBy]; }
        `,
      });
      expect(result.result).toEqual(['Oslo', 'denied', 'guardrail:program-policy']);
      expect(world.log.ran.map((call) => call.name)).toEqual(['weather_lookup']);
      expect(world.log.audit.at(-1)).toMatchObject({
        tool: 'ticket_create',
        via: 'program',
        deniedBy: { kind: 'guardrail', name: 'program-policy' },
      });
      // The same write made directly is not the program policy's business.
      const direct = await world.dispatch({ name: 'ticket_create', arguments: { title: 'y' } });
      expect(direct.status).toBe('ok');
    });
  });

  it('lets programs call the tools it lists, and denies what it denies even when read-only', async () => {
    const policy = createProgramPolicy({ allow: ['ticket_*'], deny: ['big_export'] });
    const byName = (name: string) => worldTools.find((tool) => tool.name === name)!;
    expect(policy.allows(byName('ticket_create'))).toBe(true);
    expect(policy.allows(byName('weather_lookup'))).toBe(true);
    expect(policy.allows(byName('big_export'))).toBe(false);
    expect(policy.allows(byName('shell_run'))).toBe(false);
    expect(createProgramPolicy({ readOnly: false }).allows(byName('weather_lookup'))).toBe(false);
  });

  it('matches rules on a tool’s origin, as every policy does', () => {
    const policy = createProgramPolicy({ allow: ['github/create_*'] });
    expect(
      policy.allows({
        name: 'gh_create_issue',
        inputSchema: { type: 'object' },
        origin: { server: 'github', name: 'create_issue' },
      }),
    ).toBe(true);
  });

  it('shows programs only the tools it allows when the program tool is given it', async () => {
    const policy = createProgramPolicy();
    const world = createWorld({ guardrails: [policy] });
    const { createProgramTool } = await import('./program-tool.js');
    const program = createProgramTool({
      tools: worldTools,
      dispatch: world.dispatch,
      policy,
      poolSize: 1,
    });
    try {
      const result = await program.run({
        source: `
          const hits = await tools.search('ticket support create', { limit: 10 });
          let described;
          try { await tools.describe('ticket_create'); } catch (error) { described = error.status; }
          return [hits.map((hit) => hit.name).includes('ticket_create'), described];
        `,
      });
      expect(result.result).toEqual([false, 'denied']);
    } finally {
      await program.close();
      await world.program.close();
    }
  });

  it('refuses patterns that are not a list', () => {
    expect(() => createProgramPolicy({ allow: 'ticket_*' as never })).toThrow(
      /allow must be an array/,
    );
  });
});
