import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_TOOL_NAME_RULES,
  createToolNameMap,
  OPENAI_TOOL_NAME_RULES,
} from './tool-name-map.js';

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('createToolNameMap', () => {
  it('keeps names that already follow the rules', () => {
    const names = createToolNameMap(['get_weather', 'create-issue'], OPENAI_TOOL_NAME_RULES);
    expect(names.toProvider('get_weather')).toBe('get_weather');
    expect(names.fromProvider('create-issue')).toBe('create-issue');
  });

  it('replaces disallowed characters and maps the result back', () => {
    const names = createToolNameMap([{ name: 'github.create issue' }], OPENAI_TOOL_NAME_RULES);
    expect(names.toProvider('github.create issue')).toBe('github_create_issue');
    expect(names.fromProvider('github_create_issue')).toBe('github.create issue');
  });

  it('never gives a renamed tool the name of a conforming one, whatever the order', () => {
    const names = createToolNameMap(['github.create', 'github_create'], OPENAI_TOOL_NAME_RULES);
    expect(names.toProvider('github_create')).toBe('github_create');
    expect(names.toProvider('github.create')).toMatch(/^github_create_[0-9a-f]{8}$/);
    expect(names.fromProvider(names.toProvider('github.create'))).toBe('github.create');
  });

  it('cuts long names to the limit with a hash, collision-free and deterministic', () => {
    const long = 'x'.repeat(100);
    const all = [`${long}_a`, `${long}_b`, `${long}.a`, 'ok'];
    const names = createToolNameMap(all, OPENAI_TOOL_NAME_RULES);
    const mapped = all.map((name) => names.toProvider(name));
    for (const name of mapped) expect(name).toMatch(OPENAI_NAME);
    expect(new Set(mapped).size).toBe(all.length);
    for (const name of all) expect(names.fromProvider(names.toProvider(name))).toBe(name);
    const again = createToolNameMap(all, OPENAI_TOOL_NAME_RULES);
    expect(all.map((name) => again.toProvider(name))).toEqual(mapped);
    // Anthropic allows 128 characters: the same names need no cut there.
    const anthropic = createToolNameMap(all, ANTHROPIC_TOOL_NAME_RULES);
    expect(anthropic.toProvider(`${long}_a`)).toBe(`${long}_a`);
  });

  it('maps names with non-ASCII characters and the empty name to valid names', () => {
    const all = ['météo', 'météö', ''];
    const names = createToolNameMap(all, OPENAI_TOOL_NAME_RULES);
    const mapped = all.map((name) => names.toProvider(name));
    for (const name of mapped) expect(name).toMatch(OPENAI_NAME);
    expect(new Set(mapped).size).toBe(3);
  });

  it('answers undefined for a provider name it never gave, and throws for an unknown tool', () => {
    const names = createToolNameMap(['a'], OPENAI_TOOL_NAME_RULES);
    expect(names.fromProvider('b')).toBeUndefined();
    expect(() => names.toProvider('b')).toThrow(expect.objectContaining({ code: 'unknown_tool' }));
  });

  it('rejects a limit with no room for a hash suffix', () => {
    expect(() => createToolNameMap(['a'], { maxLength: 4 })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});
