import { describe, expect, it } from 'vitest';
import {
  defineErrorCodes,
  isToolSearchErrorCode,
  TOOL_SEARCH_ERROR_CODES,
  ToolSearchError,
} from './errors.js';

describe('TOOL_SEARCH_ERROR_CODES', () => {
  it('lists each code once, in snake_case', () => {
    expect(new Set(TOOL_SEARCH_ERROR_CODES).size).toBe(TOOL_SEARCH_ERROR_CODES.length);
    for (const code of TOOL_SEARCH_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('no longer lists the codes nothing raised', () => {
    expect(isToolSearchErrorCode('guardrail_failed')).toBe(false);
    expect(isToolSearchErrorCode('approval_failed')).toBe(false);
  });

  it('tells listed codes from anything else', () => {
    expect(isToolSearchErrorCode('invalid_config')).toBe(true);
    expect(isToolSearchErrorCode('upstream_timeout')).toBe(false);
    expect(isToolSearchErrorCode('tool_error')).toBe(false);
    expect(isToolSearchErrorCode(42)).toBe(false);
  });

  it("names no code of the packages above core (mcp's are mcp's own)", () => {
    for (const code of ['upstream_timeout', 'gateway_failed', 'store_unavailable', 'denied']) {
      expect(TOOL_SEARCH_ERROR_CODES).not.toContain(code);
    }
  });

  it('documents every code it lists', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(new URL('./errors.ts', import.meta.url), 'utf8');
    const doc = source.slice(0, source.indexOf('export const TOOL_SEARCH_ERROR_CODES'));
    for (const code of TOOL_SEARCH_ERROR_CODES) expect(doc).toContain(`\`${code}\``);
  });
});

describe('ToolSearchError.data', () => {
  it('carries structured details, frozen, and none when none were given', () => {
    const error = new ToolSearchError('invalid_config', 'bad file', {
      data: { path: '/etc/gateway.json', field: 'mcpServers.memory.command' },
    });
    expect(error.data).toEqual({ path: '/etc/gateway.json', field: 'mcpServers.memory.command' });
    expect(Object.isFrozen(error.data)).toBe(true);
    expect(new ToolSearchError('invalid_argument', 'stop').data).toBeUndefined();
    expect('cause' in new ToolSearchError('invalid_argument', 'stop')).toBe(false);
  });

  it('is set by from() on a wrapped throw and left alone on a ToolSearchError', () => {
    const wrapped = ToolSearchError.from(new Error('boom'), 'ranker_failed', 'Ranker r failed', {
      ranker: 'r',
    });
    expect(wrapped.data).toEqual({ ranker: 'r' });
    const own = new ToolSearchError('tool_timeout', 'slow', { data: { timeoutMs: 5 } });
    expect(ToolSearchError.from(own, 'tool_failed', 'x', { tool: 'y' }).data).toEqual({
      timeoutMs: 5,
    });
  });
});

describe('defineErrorCodes', () => {
  it("returns a package's list with a guard that tells its codes from anything else", () => {
    const list = defineErrorCodes(['made_up_a', 'made_up_b'] as never[]);
    expect(list.codes).toEqual(['made_up_a', 'made_up_b']);
    expect(list.is('made_up_b')).toBe(true);
    expect(list.is('invalid_config')).toBe(false);
    expect(list.is(1)).toBe(false);
  });

  it("refuses a code that is core's or listed twice", () => {
    expect(() => defineErrorCodes(['invalid_config'] as never[])).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => defineErrorCodes(['made_up', 'made_up'] as never[])).toThrow(/already listed/);
  });
});
