import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DOCS_SITE,
  docFiles,
  extractRegion,
  publishedReadmeProblems,
  SyncError,
  syncText,
  tsdocLinkProblems,
} from './docs-blocks.js';
import { repoRoot } from './workspace.js';

const root = mkdtempSync(join(tmpdir(), 'docs-blocks-'));
mkdirSync(join(root, 'docs', 'examples'), { recursive: true });
mkdirSync(join(root, 'docs', 'guides'), { recursive: true });
writeFileSync(
  join(root, 'docs', 'examples', 'a.ts'),
  [
    "import { x } from 'x';",
    '// #region outer',
    '  const a = 1;',
    '  // #region inner',
    '  const b = 2;',
    '  // #endregion inner',
    '// #endregion outer',
  ].join('\n'),
);
const guide = join(root, 'docs', 'guides', 'g.md');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('extractRegion', () => {
  it('takes a region without the nested markers, dedented', () => {
    const source = '// #region r\n    one();\n    // #region s\n      two();\n// #endregion r\n';
    expect(extractRegion(source, 'r', 'f')).toBe('one();\n  two();');
  });

  it('names the file and region that is missing', () => {
    expect(() => extractRegion('const a = 1;', 'gone', 'docs/examples/a.ts#gone')).toThrow(
      new SyncError("docs/examples/a.ts#gone: no region 'gone'"),
    );
  });
});

describe('syncText', () => {
  it('turns an {@includeCode} line into a marked block that renders on GitHub', () => {
    const text = 'Intro\n\n{@includeCode ../examples/a.ts#outer}\n\nEnd';
    expect(syncText(root, guide, text)).toBe(
      [
        'Intro',
        '',
        '<!-- include: docs/examples/a.ts#outer -->',
        '```ts',
        'const a = 1;',
        'const b = 2;',
        '```',
        '<!-- /include -->',
        '',
        'End',
      ].join('\n'),
    );
  });

  it('rewrites a block that drifted from its source, and leaves a synced text alone', () => {
    const drifted = [
      '<!-- include: docs/examples/a.ts#inner -->',
      '```ts',
      'const b = 3; // edited by hand',
      '```',
      '<!-- /include -->',
    ].join('\n');
    const synced = syncText(root, guide, drifted);
    expect(synced).toContain('const b = 2;');
    expect(synced).not.toContain('edited by hand');
    expect(syncText(root, guide, synced)).toBe(synced);
  });

  it('names the markdown line of a block whose source is missing or unclosed', () => {
    const missing = 'a\n<!-- include: docs/examples/none.ts -->\n```ts\n```\n<!-- /include -->';
    expect(() => syncText(root, guide, missing)).toThrow(
      'docs/guides/g.md:2: docs/examples/none.ts: no such file',
    );
    expect(() => syncText(root, guide, '<!-- include: docs/examples/a.ts -->\n```ts')).toThrow(
      "docs/guides/g.md:1: no '<!-- /include -->' after it",
    );
  });
});

describe('publishedReadmeProblems', () => {
  it('flags relative links and a missing docs address, not absolute links', () => {
    expect(publishedReadmeProblems('[guide](../../docs/guides/x.md)')).toEqual([
      'relative link ../../docs/guides/x.md (broken on npm; link to https://tool-search.github.io/tool-search/…)',
      `no link to the docs site ${DOCS_SITE}`,
    ]);
    expect(publishedReadmeProblems(`[docs](${DOCS_SITE}) [a](#anchor)`)).toEqual([]);
  });
});

describe('tsdocLinkProblems', () => {
  it('flags each TSDoc link outside code blocks, by line, a link split over lines too', () => {
    const text = [
      'See {@link @tool-search/core!createCatalog | createCatalog} and',
      'a split {@link @tool-search/core!defineRanker |',
      'defineRanker}. Also {@linkcode x}.',
    ].join('\n');
    const problems = tsdocLinkProblems(text);
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'line 1',
      'line 2',
      'line 3',
    ]);
    expect(problems[0]).toContain('{@link @tool-search/core!createCatalog | createCatalog}');
  });

  it('leaves Markdown links, code spans and fenced TSDoc samples alone', () => {
    const text = [
      `[\`createCatalog\`](${DOCS_SITE}functions/_tool-search_core.createCatalog.html)`,
      '```ts',
      '/** Uses {@link createCatalog}. */',
      '```',
    ].join('\n');
    expect(tsdocLinkProblems(text)).toEqual([]);
  });
});

describe('the repository docs', () => {
  it('are in sync with docs/examples and hold no {@includeCode} left over', async () => {
    const { readFileSync } = await import('node:fs');
    const repository = repoRoot();
    for (const file of docFiles(repository)) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toMatch(/^\{@includeCode/m);
      expect(tsdocLinkProblems(text), file).toEqual([]);
      expect(syncText(repository, file, text), file).toBe(text);
    }
  });
});
