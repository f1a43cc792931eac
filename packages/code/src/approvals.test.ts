// Approvals inside a running program: the program waits while a person is asked (the
// wait is not CPU time), the wait has a cap, and a denial throws inside the program.
import { createCallbackApproval, createPolicyApproval } from '@tool-search/hooks';
import { describe, expect, it } from 'vitest';
import { createWorld, withWorld } from './__fixtures__/world.js';

describe('approvals inside a program', () => {
  it('waits for the person without spending CPU time, then runs the approved call', async () => {
    let answer: (yes: boolean) => void = () => undefined;
    let markAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      markAsked = resolve;
    });
    const world = createWorld({
      limits: { cpuTimeMs: 300 },
      approval: createCallbackApproval(
        () =>
          new Promise<boolean>((resolve) => {
            answer = resolve;
            markAsked();
          }),
        { name: 'person' },
      ),
    });
    try {
      const running = world.program.run({
        source:
          "const ticket = await tools.ticket_create({ title: 'Printer' }); return ticket.title;",
      });
      await asked;
      // The person takes longer than the whole CPU limit to answer.
      await new Promise((resolve) => setTimeout(resolve, 900));
      answer(true);
      const result = await running;
      expect(result).toMatchObject({ status: 'completed', result: 'Printer' });
      expect(world.log.audit.at(-1)).toMatchObject({
        tool: 'ticket_create',
        approval: 'allow-once',
        via: 'program',
      });
    } finally {
      await world.program.close();
    }
  });

  it('throws a denial inside the program, which may catch it', async () => {
    await withWorld(
      {
        approval: createPolicyApproval({
          require: { tools: ['ticket_*'] },
          ask: createCallbackApproval(() => ({ decision: 'deny', reason: 'not today' }), {
            name: 'person',
          }),
        }),
      },
      async (world) => {
        const result = await world.program.run({
          source: `
          try { await tools.ticket_create({ title: 'x' }); return 'created'; }
          catch (error) { return { name: error.name, status: error.status, reason: error.reason, by: error.deniedBy }; }
        `,
        });
        expect(result.result).toMatchObject({
          name: 'ToolCallError',
          status: 'denied',
          by: 'approval:person',
        });
        expect(result.calls).toMatchObject([{ name: 'ticket_create', status: 'denied' }]);
        expect(world.log.ran).toEqual([]);
      },
    );
  });

  it('cancels a call whose approval waits past the call limit, and the program hears it', async () => {
    await withWorld(
      {
        limits: { callTimeoutMs: 300 },
        approval: { name: 'nobody', request: () => new Promise(() => undefined) },
      },
      async (world) => {
        const result = await world.program.run({
          source:
            "try { await tools.ticket_create({ title: 'x' }); } catch (error) { return error.status; }",
        });
        expect(result.result).toBe('cancelled');
        expect(world.log.ran).toEqual([]);
      },
    );
  });

  it('ends an uncaught denial as the program’s error, with the calls it made up to it', async () => {
    await withWorld(
      {
        approval: createCallbackApproval(() => false, { name: 'person' }),
      },
      async (world) => {
        const result = await world.program.run({
          source:
            "await tools.weather_lookup({ city: 'Oslo' }); await tools.ticket_create({ title: 'x' });",
        });
        expect(result).toMatchObject({ status: 'error', error: { code: 'program_threw' } });
        expect(result.error?.message).toContain('ToolCallError');
        // The first denial ends the program: the second call is never made.
        expect(result.calls).toMatchObject([{ name: 'weather_lookup', status: 'denied' }]);
        expect(world.log.ran).toEqual([]);
      },
    );
  });
});
