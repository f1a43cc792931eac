import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Where a code literal was found: the construct that raises it. */
export type ErrorCodeSite =
  | 'new ToolSearchError'
  | 'ToolSearchError.from'
  | 'errorResult'
  | 'dispatchError'
  | 'fail'
  | 'error _meta'
  | 'code property';

/** One error-code literal in a source file. */
export interface ErrorCodeLiteral {
  /** The file, relative to the scanned root, with `/` separators. */
  file: string;
  /** 1-based line of the literal. */
  line: number;
  code: string;
  site: ErrorCodeSite;
}

const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.turbo']);

/**
 * Every source file under `packages/` and `apps/` of the repo, tests (`*.test.*`, `*.test-d.*`),
 * declaration files and build output left out.
 *
 * @param root - the repo root
 * @returns paths relative to `root`, `/`-separated, sorted
 * @throws when a folder cannot be read
 */
export function errorCodeSourceFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(join(folder, entry.name));
      } else if (
        SOURCE_EXTENSIONS.test(entry.name) &&
        !/\.test(-d)?\.|\.d\.[cm]?ts$/.test(entry.name)
      ) {
        found.push(relative(root, join(folder, entry.name)).split(sep).join('/'));
      }
    }
  };
  for (const top of ['packages', 'apps']) walk(join(root, top));
  return found.sort();
}

// The constructs whose argument (by position) is an error code.
const CALLS: { pattern: RegExp; site: ErrorCodeSite; argument: number }[] = [
  { pattern: /\bnew\s+ToolSearchError\s*\(/g, site: 'new ToolSearchError', argument: 0 },
  { pattern: /\bToolSearchError\.from\s*\(/g, site: 'ToolSearchError.from', argument: 1 },
  { pattern: /\berrorResult\s*\(/g, site: 'errorResult', argument: 0 },
  { pattern: /\bdispatchError\s*\(/g, site: 'dispatchError', argument: 0 },
  // The dispatcher's steps settle a call's state with `fail(state, code, message)`.
  { pattern: /\bfail\s*\((?=\s*state\s*,)/g, site: 'fail', argument: 1 },
];
// `_meta: { [UPSTREAM_ERROR_META_KEY]: code }` or `{ 'tool-search/error': code }`.
const META_KEY = /(\[\s*(?:UPSTREAM_)?ERROR_META_KEY\s*\]|(['"])tool-search\/error\2)\s*:/g;
const CODE_PROPERTY = /\bcode\s*:\s*(?=['"`])/g;

interface Span {
  start: number;
  end: number;
}

/** Skips a string, template or comment starting at `index`; returns the index after it. */
function skipLiteral(text: string, index: number): number {
  const char = text[index];
  if (char === '/' && text[index + 1] === '/') {
    const end = text.indexOf('\n', index);
    return end === -1 ? text.length : end;
  }
  if (char === '/' && text[index + 1] === '*') {
    const end = text.indexOf('*/', index + 2);
    return end === -1 ? text.length : end + 2;
  }
  if (char === "'" || char === '"' || char === '`') {
    let at = index + 1;
    while (at < text.length && text[at] !== char) {
      if (text[at] === '\\') at += 1;
      else if (char === '`' && text[at] === '$' && text[at + 1] === '{') {
        at = skipBalanced(text, at + 1) - 1;
      }
      at += 1;
    }
    return at + 1;
  }
  return index;
}

function isLiteralStart(text: string, index: number): boolean {
  const char = text[index];
  return (
    char === "'" ||
    char === '"' ||
    char === '`' ||
    (char === '/' && (text[index + 1] === '/' || text[index + 1] === '*'))
  );
}

/** From an opening bracket at `index`, the index after its matching closer. */
function skipBalanced(text: string, index: number): number {
  let depth = 0;
  let at = index;
  while (at < text.length) {
    if (isLiteralStart(text, at)) {
      at = skipLiteral(text, at);
      continue;
    }
    const char = text[at]!;
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
    at += 1;
  }
  return text.length;
}

/**
 * The top-level pieces of a list from `start` (just after an opening bracket) up to
 * its closer, split at commas; with `stopAtComma`, only the first piece.
 */
function pieces(text: string, start: number, stopAtComma = false): Span[] {
  const spans: Span[] = [];
  let from = start;
  let at = start;
  while (at < text.length) {
    if (isLiteralStart(text, at)) {
      at = skipLiteral(text, at);
      continue;
    }
    const char = text[at]!;
    if ('([{'.includes(char)) {
      at = skipBalanced(text, at);
      continue;
    }
    if (char === ',' || ')]}'.includes(char)) {
      spans.push({ start: from, end: at });
      if (char !== ',' || stopAtComma) return spans;
      from = at + 1;
    }
    at += 1;
  }
  spans.push({ start: from, end: text.length });
  return spans;
}

/**
 * The string literals of an expression that can be its value: at its top level (not
 * inside a call or an object) and not an operand of a comparison, so that both
 * branches of `a ? 'x' : 'y'` count and the `'z'` of `kind === 'z' ? …` does not.
 */
function valueLiterals(text: string, span: Span): { value: string; at: number }[] {
  const found: { value: string; at: number }[] = [];
  let at = span.start;
  while (at < span.end) {
    if (isLiteralStart(text, at)) {
      const end = skipLiteral(text, at);
      const quote = text[at];
      const raw = text.slice(at + 1, end - 1);
      const before = text.slice(span.start, at).trimEnd();
      const after = text.slice(end, span.end).trimStart();
      const compared = /[=!]==?$/.test(before) || /^[=!]==?/.test(after);
      const dynamic = quote === '`' && raw.includes('${');
      if (quote !== '/' && !compared && !dynamic) found.push({ value: raw, at });
      at = end;
      continue;
    }
    if ('([{'.includes(text[at]!)) {
      at = skipBalanced(text, at);
      continue;
    }
    at += 1;
  }
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    line += 1;
  }
  return line;
}

/** The `{ … }` that encloses `index`, or undefined at the top level. */
function enclosingObject(text: string, index: number): Span | undefined {
  let depth = 0;
  for (let at = index - 1; at >= 0; at -= 1) {
    const char = text[at]!;
    if ('}])'.includes(char)) depth += 1;
    else if ('{[('.includes(char)) {
      if (depth === 0) return char === '{' ? { start: at, end: skipBalanced(text, at) } : undefined;
      depth -= 1;
    }
  }
  return undefined;
}

/**
 * Finds the error-code literals of one source text: the code argument of
 * `new ToolSearchError(…)`, `ToolSearchError.from(…)`, `errorResult(…)` and
 * `dispatchError(…)`, the value under `_meta["tool-search/error"]`, and `code: '…'` in an
 * object that also has a `message` (a `DispatchError` written out).
 *
 * @param text - the source
 * @param file - its name, for the findings
 * @returns every literal found, in source order
 * @throws nothing
 */
export function findErrorCodeLiterals(text: string, file: string): ErrorCodeLiteral[] {
  const found: ErrorCodeLiteral[] = [];
  const add = (site: ErrorCodeSite, literals: { value: string; at: number }[]) => {
    for (const { value, at } of literals) {
      found.push({ file, line: lineOf(text, at), code: value, site });
    }
  };
  for (const { pattern, site, argument } of CALLS) {
    for (const match of text.matchAll(pattern)) {
      const span = pieces(text, match.index + match[0].length)[argument];
      if (span !== undefined) add(site, valueLiterals(text, span));
    }
  }
  for (const match of text.matchAll(META_KEY)) {
    const [span] = pieces(text, match.index + match[0].length, true);
    if (span !== undefined) add('error _meta', valueLiterals(text, span));
  }
  for (const match of text.matchAll(CODE_PROPERTY)) {
    const object = enclosingObject(text, match.index);
    if (object === undefined || !/\bmessage\b/.test(text.slice(object.start, object.end))) continue;
    const [span] = pieces(text, match.index + match[0].length, true);
    if (span !== undefined) add('code property', valueLiterals(text, span));
  }
  return found.sort((a, b) => a.line - b.line);
}

/**
 * Scans every source file of `packages/` and `apps/` for error-code literals.
 *
 * @param root - the repo root
 * @returns every literal found, by file and line
 * @throws when a file cannot be read
 */
export function scanErrorCodes(root: string): ErrorCodeLiteral[] {
  return errorCodeSourceFiles(root).flatMap((file) =>
    findErrorCodeLiterals(readFileSync(join(root, file), 'utf8'), file),
  );
}

/**
 * What to do about each literal that is not on the list, one line each.
 *
 * @param literals - the scan's findings
 * @param listed - the closed list (`TOOL_SEARCH_ERROR_CODES`)
 * @returns one instruction per unlisted literal; empty when all are listed
 * @throws nothing
 */
export function unlistedCodeProblems(
  literals: readonly ErrorCodeLiteral[],
  listed: readonly string[],
): string[] {
  const known = new Set(listed);
  return literals
    .filter((literal) => !known.has(literal.code))
    .map(
      (literal) =>
        `${literal.file}:${literal.line} raises '${literal.code}' (${literal.site}), which is on no package's closed list: add '${literal.code}' to the list of the package that raises it (its src/errors.ts) and to docs/guides/errors.md (what it means, who raises it, what to do), or use a listed code.`,
    );
}
