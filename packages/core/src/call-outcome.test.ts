import { describe, expect, it } from 'vitest';
import { callSucceeded } from './call-outcome.js';

describe('callSucceeded', () => {
  it('counts an ok dispatch, a plain value and a bridge answer as success', () => {
    expect(callSucceeded({ status: 'ok', result: { content: [] }, call: { name: 't' } })).toBe(
      true,
    );
    expect(callSucceeded('sent')).toBe(true);
    expect(callSucceeded(null)).toBe(true);
    expect(callSucceeded({ matches: [] })).toBe(true);
  });

  it('never counts a refusal, a failure or an MCP error result', () => {
    for (const status of ['denied', 'error', 'cancelled']) {
      expect(callSucceeded({ status, call: { name: 't' } })).toBe(false);
    }
    expect(callSucceeded({ isError: true, content: [] })).toBe(false);
    expect(callSucceeded({ status: 'ok', result: { isError: true, content: [] } })).toBe(false);
  });

  it('reads own fields only: nothing inherited from Object.prototype decides', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto['isError'] = true;
    try {
      expect(callSucceeded({ status: 'ok', result: {} })).toBe(true);
    } finally {
      delete proto['isError'];
    }
  });
});
