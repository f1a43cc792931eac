import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGlobMatcher, globToRegExp } from './glob.js';

/** A plain backtracking matcher: slow, obviously right, the reference. */
function reference(pattern: string, name: string): boolean {
  const tokens: ({ star: true } | { any: true } | { char: string })[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\' && index + 1 < pattern.length) tokens.push({ char: pattern[++index]! });
    else if (char === '*') tokens.push({ star: true });
    else if (char === '?') tokens.push({ any: true });
    else tokens.push({ char });
  }
  const match = (t: number, n: number): boolean => {
    if (t === tokens.length) return n === name.length;
    const token = tokens[t]!;
    if ('star' in token) {
      for (let skip = n; skip <= name.length; skip++) if (match(t + 1, skip)) return true;
      return false;
    }
    if (n === name.length) return false;
    if ('any' in token) return match(t + 1, n + 1);
    return token.char === name[n] && match(t + 1, n + 1);
  };
  return match(0, 0);
}

describe('globToRegExp', () => {
  it('matches * as any run, ? as one character, and the rest literally', () => {
    expect(globToRegExp('github_*').test('github_create_issue')).toBe(true);
    expect(globToRegExp('github_*').test('gitlab_create_issue')).toBe(false);
    expect(globToRegExp('*_delete_*').test('repo_delete_branch')).toBe(true);
    expect(globToRegExp('*_delete_*').test('delete_branch')).toBe(false);
    expect(globToRegExp('file?').test('files')).toBe(true);
    expect(globToRegExp('file?').test('file')).toBe(false);
    expect(globToRegExp('a.b').test('aXb')).toBe(false);
    expect(globToRegExp('(x)+[y]{2}|$^').test('(x)+[y]{2}|$^')).toBe(true);
    expect(globToRegExp('*').test('')).toBe(true);
    expect(globToRegExp('').test('')).toBe(true);
    expect(globToRegExp('').test('x')).toBe(false);
  });

  it('is case-sensitive and anchored', () => {
    expect(globToRegExp('Read').test('read')).toBe(false);
    expect(globToRegExp('read').test('read_file')).toBe(false);
    expect(globToRegExp('read').test('unread')).toBe(false);
  });

  it('takes a backslash to mean the next character literally', () => {
    expect(globToRegExp('a\\*').test('a*')).toBe(true);
    expect(globToRegExp('a\\*').test('ab')).toBe(false);
    expect(globToRegExp('a\\?').test('a?')).toBe(true);
    expect(globToRegExp('a\\?').test('ab')).toBe(false);
    expect(globToRegExp('a\\').test('a\\')).toBe(true);
  });

  it('agrees with a reference matcher on random patterns and names', () => {
    const alphabet = fc.constantFrom('a', 'b', '_', '.', '*', '?', '\\', '(', '[');
    const text = fc.constantFrom('a', 'b', '_', '.', '*', '?', '\\', '(', '[');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 8 }).map((chars) => chars.join('')),
        fc.array(text, { maxLength: 10 }).map((chars) => chars.join('')),
        (pattern, name) => {
          expect(globToRegExp(pattern).test(name)).toBe(reference(pattern, name));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('finds the text between stars with atomic lookaheads, so that it never backtracks across stars', () => {
    expect(globToRegExp('a*b*c').source).toBe('^a(?=([\\s\\S]*?b))\\1[\\s\\S]*c$');
    // A naive translation (^a.*a.*…b$) would not finish on this input in any test run.
    expect(globToRegExp(`${'a*'.repeat(30)}b`).test('a'.repeat(20_000))).toBe(false);
  });

  it('throws on a pattern that is not a string', () => {
    expect(() => globToRegExp(42 as unknown as string)).toThrow(/must be a string/);
  });
});

describe('createGlobMatcher', () => {
  it('matches when any pattern matches, and never for an empty list', () => {
    const matches = createGlobMatcher(['github_*', 'slack_post_message']);
    expect(matches('github_get_issue')).toBe(true);
    expect(matches('slack_post_message')).toBe(true);
    expect(matches('slack_list_channels')).toBe(false);
    expect(createGlobMatcher([])('anything')).toBe(false);
  });
});
