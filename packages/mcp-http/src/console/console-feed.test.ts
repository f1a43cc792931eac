import { describe, expect, it } from 'vitest';
import { activityOfAudit } from './console-feed.js';

describe('activityOfAudit', () => {
  it('carries the route and the program of a call a program made', () => {
    const line = activityOfAudit({
      id: '1-0',
      record: {
        tool: 'get-sum',
        via: 'program',
        programId: 'p-1',
        decision: 'allowed',
        status: 'ok',
        startedAt: '2026-01-01T00:00:00.000Z',
        durationMs: 3.4,
        replica: 'host:1',
      },
    });
    expect(line).toMatchObject({
      tool: 'get-sum',
      via: 'program',
      programId: 'p-1',
      durationMs: 3,
    });
    const direct = activityOfAudit({
      id: '2-0',
      record: {
        tool: 'echo',
        via: 'direct',
        decision: 'allowed',
        status: 'ok',
        startedAt: '2026-01-01T00:00:00.000Z',
        durationMs: 1,
        replica: 'host:1',
      },
    });
    expect(direct).toMatchObject({ via: 'direct' });
    expect(direct).not.toHaveProperty('programId');
  });
});
