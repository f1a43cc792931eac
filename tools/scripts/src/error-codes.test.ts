import { AI_SDK_ERROR_CODES } from '@tool-search/ai-sdk';
import { CODE_ERROR_CODES } from '@tool-search/code';
import { TOOL_SEARCH_ERROR_CODES } from '@tool-search/core';
import { MCP_ERROR_CODES } from '@tool-search/mcp';
import { describe, expect, it } from 'vitest';
import {
  errorCodeSourceFiles,
  findErrorCodeLiterals,
  scanErrorCodes,
  unlistedCodeProblems,
} from './error-codes.js';
import { repoRoot } from './workspace.js';

const codesIn = (text: string) => findErrorCodeLiterals(text, 'x.ts').map((found) => found.code);

// Each package's own closed list of `ToolSearchError` codes: core's, and those registered
// on top of it (one code, one list). The bridge's answers to the model carry codes of a
// list of their own (data, never thrown), which the bridge's own test walks.
const LISTS = [
  { file: 'packages/core/src/errors.ts', codes: TOOL_SEARCH_ERROR_CODES },
  { file: 'packages/mcp/src/errors.ts', codes: MCP_ERROR_CODES },
  { file: 'packages/code/src/errors.ts', codes: CODE_ERROR_CODES },
  { file: 'packages/ai-sdk/src/errors.ts', codes: AI_SDK_ERROR_CODES },
];
const ALL_CODES = LISTS.flatMap((list) => list.codes);

describe('the error codes of packages/ and apps/', () => {
  const literals = scanErrorCodes(repoRoot());

  it('are all on the closed list of a package', () => {
    // Each line says which file raises which code, and what to add where.
    expect(unlistedCodeProblems(literals, ALL_CODES)).toEqual([]);
  });

  it('include every listed code: the list holds no code that nothing raises', () => {
    const raised = new Set(literals.map((literal) => literal.code));
    const neverRaised = LISTS.flatMap((list) =>
      list.codes
        .filter((code) => !raised.has(code))
        .map(
          (code) =>
            `'${code}' is listed in ${list.file} but no source raises it: remove it from the list or raise it where it belongs.`,
        ),
    );
    expect(neverRaised).toEqual([]);
  });

  it('are each on one list only', () => {
    expect(ALL_CODES.length).toBe(new Set(ALL_CODES).size);
  });

  it('are read from the sources, not from tests or build output', () => {
    const files = errorCodeSourceFiles(repoRoot());
    expect(files).toContain('packages/mcp/src/upstream/call.ts');
    expect(files).toContain('apps/gateway/src/serve.ts');
    expect(files.some((file) => /\.test\.|node_modules|\/dist\//.test(file))).toBe(false);
    // The scanner sees the sites it is meant to see (a scanner that finds nothing passes nothing).
    expect(literals.length).toBeGreaterThan(60);
    expect(literals).toContainEqual({
      file: 'packages/hooks/src/step-execute.ts',
      line: expect.any(Number),
      code: 'tool_failed',
      site: 'dispatchError',
    });
  });
});

describe('findErrorCodeLiterals', () => {
  it('finds the code of each construct that raises one', () => {
    expect(
      codesIn(`
        throw new ToolSearchError(
          'invalid_config', \`Bad \${file}\`, { data: { path: 'x' } });
        ToolSearchError.from(error, 'ranker_failed', 'Ranker failed');
        return errorResult('shutting_down', 'The gateway is shutting down.');
        dispatchError(isTool ? thrown.code : 'tool_failed', 'msg');
        const result = { _meta: { [UPSTREAM_ERROR_META_KEY]: 'overloaded' } };
        const raw = { _meta: { 'tool-search/error': "raw_meta" } };
        const error: DispatchError = { code: 'made_up', message: 'm' };
      `),
    ).toEqual([
      'invalid_config',
      'ranker_failed',
      'shutting_down',
      'tool_failed',
      'overloaded',
      'raw_meta',
      'made_up',
    ]);
  });

  it('ignores messages, comparisons, dynamic codes and unrelated code properties', () => {
    expect(
      codesIn(`
        new ToolSearchError(code, 'not a code: a message');
        errorResult(kind === 'late' ? 'upstream_timeout' : 'upstream_failed', 'text');
        errorResult(\`\${prefix}_failed\`, 'text');
        if (error.code === 'ENOENT') return;
        const options = { code: { regExp: linear } };
        const issue = { code: 'custom' };
      `),
    ).toEqual(['upstream_timeout', 'upstream_failed']);
  });

  it('reports the line of each literal', () => {
    const [found] = findErrorCodeLiterals("\n\nerrorResult(\n  'denied',\n  'no')", 'a.ts');
    expect(found).toEqual({ file: 'a.ts', line: 4, code: 'denied', site: 'errorResult' });
  });
});

describe('unlistedCodeProblems', () => {
  it('says which file raises which unlisted code and where to add it', () => {
    const problems = unlistedCodeProblems(
      [
        {
          file: 'packages/mcp/src/gateway-http.ts',
          line: 7,
          code: 'shutting_down',
          site: 'errorResult',
        },
        { file: 'packages/mcp/src/gateway-http.ts', line: 9, code: 'denied', site: 'errorResult' },
      ],
      ALL_CODES,
    );
    expect(problems).toEqual([
      "packages/mcp/src/gateway-http.ts:7 raises 'shutting_down' (errorResult), which is on no package's closed list: add 'shutting_down' to the list of the package that raises it (its src/errors.ts) and to docs/guides/errors.md (what it means, who raises it, what to do), or use a listed code.",
    ]);
  });
});
