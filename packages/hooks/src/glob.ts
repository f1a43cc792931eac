import { ToolSearchError } from '@tool-search/core';

const REGEXP_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const ANY = '[\\s\\S]';

/** A piece of a pattern between stars: literal text and `?` wildcards. */
type Token = { wildcard: true } | { literal: string };

function segmentSource(segment: readonly Token[]): string {
  return segment
    .map((token) => ('wildcard' in token ? ANY : token.literal.replace(REGEXP_SYNTAX, '\\$&')))
    .join('');
}

/**
 * Compiles a glob over names into an anchored RegExp: `*` matches any run of
 * characters (also none), `?` exactly one, `\` makes the next character literal, and
 * everything else matches itself. Matching is case-sensitive, like tool names.
 *
 * Safe on any input: the text between stars is found with an atomic lookahead at its
 * leftmost position (`(?=([\s\S]*?seg))\1`), which is always correct for fixed-length
 * pieces, so the expression never backtracks across stars and runs in time linear in
 * the name for each piece, whatever the pattern.
 *
 * @example
 * ```ts
 * globToRegExp('*_delete_*').test('repo_delete_branch'); // true
 * globToRegExp('file?').test('file'); // false
 * ```
 *
 * @param pattern - e.g. `github_*`, `mcp-*`, `*_delete_*`, `file?`
 * @returns an anchored RegExp
 * @throws `ToolSearchError` `invalid_argument` when `pattern` is not a string
 */
export function globToRegExp(pattern: string): RegExp {
  if (typeof pattern !== 'string') {
    throw new ToolSearchError(
      'invalid_argument',
      `A glob pattern must be a string, got ${typeof pattern}.`,
    );
  }
  const segments: Token[][] = [[]];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    const current = segments[segments.length - 1]!;
    if (char === '\\' && index + 1 < pattern.length) {
      // A code point, so that an escaped astral character stays whole.
      const next = String.fromCodePoint(pattern.codePointAt(index + 1)!);
      current.push({ literal: next });
      index += next.length;
    } else if (char === '*') {
      // Consecutive stars are one star.
      if (current.length > 0 || segments.length === 1) segments.push([]);
    } else if (char === '?') {
      current.push({ wildcard: true });
    } else {
      current.push({ literal: char });
    }
  }
  const sources = segments.map(segmentSource);
  if (sources.length === 1) return new RegExp(`^${sources[0]}$`);
  const first = sources[0]!;
  const last = sources[sources.length - 1]!;
  const middle = sources
    .slice(1, -1)
    .map((source, index) => `(?=(${ANY}*?${source}))\\${index + 1}`)
    .join('');
  return new RegExp(`^${first}${middle}${ANY}*${last}$`);
}

/**
 * Compiles a list of globs into one predicate: true when any pattern matches. In a
 * glob, `*` matches any run of characters (also none), `?` exactly one, `\` makes the
 * next character literal, and everything else matches itself; matching is
 * case-sensitive, like tool names, and takes time linear in the name whatever the
 * pattern.
 *
 * @example
 * ```ts
 * const isGitHub = createGlobMatcher(['github_*', 'gh_*']);
 * isGitHub('github_create_issue'); // true
 * ```
 *
 * @param patterns - glob patterns, e.g. `github_*`, `mcp-*`, `*_delete_*`, `file?`
 * @returns a predicate over names; always false for an empty list
 * @throws `ToolSearchError` `invalid_argument` when a pattern is not a string
 */
export function createGlobMatcher(patterns: readonly string[]): (name: string) => boolean {
  const expressions = patterns.map(globToRegExp);
  return (name) => expressions.some((expression) => expression.test(name));
}
