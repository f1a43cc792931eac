import { describe, expect, it } from 'vitest';
import { isToolSearchErrorCode, TOOL_SEARCH_ERROR_CODES, ToolSearchError } from './errors.js';

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
    expect(isToolSearchErrorCode('upstream_timeout')).toBe(true);
    expect(isToolSearchErrorCode('tool_error')).toBe(false);
    expect(isToolSearchErrorCode(42)).toBe(false);
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
    expect(new ToolSearchError('aborted', 'stop').data).toBeUndefined();
    expect('cause' in new ToolSearchError('aborted', 'stop')).toBe(false);
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
