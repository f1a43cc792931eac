import type { McpTool } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import {
  describedBy,
  issueWorkingSet,
  readWorkingSet,
  WORKING_SET_ARGUMENT,
  WORKING_SET_MAX_CHARS,
  WORKING_SET_META_KEY,
  withWorkingSet,
  withWorkingSetArgument,
} from './working-set.js';
import { takeWorkingSet } from './working-set-call.js';

const KEY = new Uint8Array(32).fill(3);
const reader = (inScope: (name: string) => boolean = () => true) => ({
  key: KEY,
  principal: 'p',
  profile: 'team',
  inScope,
  now: Date.now(),
});

describe('the working-set handle, piece by piece', () => {
  it('adds an optional working_set to a lenient bridge schema, a nullable required one to a strict one, nothing to other tools', () => {
    const lenient = withWorkingSetArgument({
      name: 'tool_search',
      description: 'Search.',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    } as McpTool);
    expect(lenient.inputSchema).toMatchObject({
      properties: { query: { type: 'string' }, [WORKING_SET_ARGUMENT]: { type: 'string' } },
    });
    expect(lenient.inputSchema).not.toHaveProperty('required');
    expect(lenient.description).toMatch(/^Search\.\n\n.*working_set/s);

    const strict = withWorkingSetArgument({
      name: 'tool_call',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
    } as McpTool);
    expect(strict.inputSchema).toMatchObject({
      required: ['name', WORKING_SET_ARGUMENT],
      properties: { [WORKING_SET_ARGUMENT]: { type: ['string', 'null'] } },
    });

    const other = { name: 'read_file', inputSchema: { type: 'object' } } as McpTool;
    expect(withWorkingSetArgument(other)).toBe(other);
    expect(withWorkingSetArgument({ ...other, name: 'tool_program' }).inputSchema).toEqual({
      type: 'object',
    });
  });

  it("takes working_set off a bridge tool's call only: a tool's own argument of that name is its own", () => {
    const taken = takeWorkingSet({
      name: 'tool_call',
      arguments: { name: 'x', arguments: {}, [WORKING_SET_ARGUMENT]: 'h' },
    });
    expect(taken).toEqual({
      params: { name: 'tool_call', arguments: { name: 'x', arguments: {} } },
      takes: true,
      raw: 'h',
    });
    const own = { name: 'notes', arguments: { [WORKING_SET_ARGUMENT]: 'mine' } };
    expect(takeWorkingSet(own)).toEqual({ params: own, takes: false, raw: undefined });
  });

  it('keeps an issued handle under its bound, dropping the oldest searches, then the oldest tools', () => {
    const long = (index: number) => `tool_${String(index).padStart(3, '0')}_${'n'.repeat(100)}`;
    const searches = Array.from({ length: 8 }, (_, search) => ({
      i: `s${search}`,
      t: ['term'],
      h: Array.from({ length: 20 }, (_, hit) => long(search * 20 + hit)),
      c: 0,
    }));
    const described = Array.from({ length: 40 }, (_, index) => long(900 + index));
    const handle = issueWorkingSet(
      KEY,
      { principal: 'p', profile: 'team', described, searches },
      Date.now(),
    );
    expect(handle.length).toBeLessThanOrEqual(WORKING_SET_MAX_CHARS);
    const read = readWorkingSet(handle, reader());
    expect(read.s.length).toBeLessThan(8);
    // The newest search is the one kept longest.
    if (read.s.length > 0) expect(read.s.at(-1)!.i).toBe('s7');
    expect(read.d.at(-1)).toBe(long(939));
  });

  it('reads back only the names in scope now', () => {
    const handle = issueWorkingSet(
      KEY,
      {
        principal: 'p',
        profile: 'team',
        described: ['in', 'out'],
        searches: [{ i: 'a', t: ['x'], h: ['out'], c: 0 }],
      },
      Date.now(),
    );
    const read = readWorkingSet(
      handle,
      reader((name) => name === 'in'),
    );
    expect(read.d).toEqual(['in']);
    expect(read.s).toEqual([]);
  });

  it('puts the handle in a search answer, after a call result, and in _meta', () => {
    const answer = { content: [{ type: 'text' as const, text: '{"query":"q","matches":[]}' }] };
    const searched = withWorkingSet('tool_search', answer, 'H');
    expect(JSON.parse((searched.content[0] as { text: string }).text)).toEqual({
      query: 'q',
      matches: [],
      working_set: 'H',
    });
    expect(searched.structuredContent).toEqual({ query: 'q', matches: [], working_set: 'H' });
    const called = withWorkingSet(
      'tool_call',
      { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } },
      'H',
    );
    // A tool's own structured result is left as it is.
    expect(called.structuredContent).toEqual({ ok: true });
    expect(called.content.at(-1)).toEqual({ type: 'text', text: '{"working_set":"H"}' });
    expect(called._meta?.[WORKING_SET_META_KEY]).toBe('H');
  });

  it('names the tools a describe or select: gave in full, not those a search only listed', () => {
    const text = (value: unknown) => ({
      content: [{ type: 'text' as const, text: JSON.stringify(value) }],
    });
    expect(describedBy('tool_describe', text({ name: 'a', parameters: {} }))).toEqual(['a']);
    expect(
      describedBy(
        'tool_describe',
        text({ results: [{ name: 'a', parameters: {} }, { error: 'x' }] }),
      ),
    ).toEqual(['a']);
    expect(
      describedBy('tool_search', text({ matches: [{ name: 'b', parameters: {} }, { name: 'c' }] })),
    ).toEqual(['b']);
    expect(
      describedBy('tool_describe', { ...text({ name: 'a', parameters: {} }), isError: true }),
    ).toEqual([]);
  });
});
