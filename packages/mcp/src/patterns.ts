/** A tool as patterns see it: its exposed name and, for upstream tools, where it came from. */
export interface PatternSubject {
  /** The tool's name as the gateway exposes it. */
  name: string;
  /** The upstream server, when known. */
  server?: string;
  /** The tool's name on its upstream server, when known. */
  upstreamName?: string;
}

const cache = new Map<string, RegExp>();

function globToRegExp(glob: string): RegExp {
  let regexp = cache.get(glob);
  if (regexp === undefined) {
    const source = glob
      .split('')
      .map((char) => {
        if (char === '*') return '.*';
        if (char === '?') return '.';
        return char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
      })
      .join('');
    regexp = new RegExp(`^${source}$`);
    cache.set(glob, regexp);
  }
  return regexp;
}

/**
 * Whether a tool matches a pattern. A pattern is a glob (`*` any run, `?` one
 * character) over the exposed name, or over `<server>/<upstream name>` (so
 * `filesystem/*` is every tool of the `filesystem` server).
 *
 * @param pattern - the glob
 * @param subject - the tool
 * @returns true when either form matches
 */
export function matchesToolPattern(pattern: string, subject: PatternSubject): boolean {
  const regexp = globToRegExp(pattern);
  if (regexp.test(subject.name)) return true;
  return (
    subject.server !== undefined &&
    regexp.test(`${subject.server}/${subject.upstreamName ?? subject.name}`)
  );
}

/**
 * Whether a tool matches any of the patterns; see {@link matchesToolPattern}.
 *
 * @param patterns - globs
 * @param subject - the tool
 * @returns true when one matches
 */
export function matchesAnyToolPattern(
  patterns: readonly string[],
  subject: PatternSubject,
): boolean {
  return patterns.some((pattern) => matchesToolPattern(pattern, subject));
}
