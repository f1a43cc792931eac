import type { RE2JS } from 're2js';
import { describeError } from '../errors.js';
import { spendPatternSteps } from './budget.js';
import { loadRe2 } from './libraries.js';

const MAX_CACHED_PATTERNS = 1000;
const linearPatterns = new Map<string, { compiled: RE2JS; size: number } | { error: string }>();

function linearPattern(pattern: string): { compiled: RE2JS; size: number } | { error: string } {
  let known = linearPatterns.get(pattern);
  if (known) return known;
  const engine = loadRe2();
  try {
    const compiled = engine.compile(pattern);
    // The program's length bounds the matcher's work per character (re2js keeps it on
    // an internal field: without it, assume the pattern's own length).
    const program = (compiled as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input
      ?.prog?.inst;
    known = {
      compiled,
      size: Math.max(Array.isArray(program) ? program.length : 0, pattern.length, 1),
    };
  } catch (error) {
    known = {
      error: `its pattern ${JSON.stringify(pattern)} needs a feature the linear-time matcher does not have (${describeError(error)}); patterns: 'native' runs it with RegExp, for schemas you trust`,
    };
  }
  linearPatterns.set(pattern, known);
  if (linearPatterns.size > MAX_CACHED_PATTERNS) {
    const oldest = linearPatterns.keys().next().value;
    if (oldest !== undefined) linearPatterns.delete(oldest);
  }
  return known;
}

/**
 * Why the linear engine cannot run a pattern, or `undefined` when it can.
 *
 * @param pattern - the pattern's source
 * @returns the reason, or `undefined`
 * @throws `Error` while re2js is still loading
 */
export function linearPatternProblem(pattern: string): string | undefined {
  const known = linearPattern(pattern);
  return 'error' in known ? known.error : undefined;
}

/**
 * A `RegExp` stand-in over RE2 (linear-time matching), for ajv and the interpreter.
 * ajv tells patterns apart by `toString()`, so it must differ per pattern. A test whose
 * cost (program length times string length) no longer fits the check's budget is not
 * run: the pattern passes, and the check reports it as left unchecked.
 *
 * @param pattern - the pattern's source
 * @param flags - the flags, for `toString()`
 * @returns the stand-in
 * @throws `Error` when the linear engine cannot run the pattern
 */
export function linearRegExp(
  pattern: string,
  flags: string,
): { test(input: string): boolean; toString(): string } {
  const known = linearPattern(pattern);
  if ('error' in known) throw new Error(known.error);
  const { compiled, size } = known;
  return {
    test: (input) =>
      spendPatternSteps(pattern, size * (input.length + 1)) ? compiled.test(input) : true,
    toString: () => `/${pattern}/${flags}`,
  };
}
