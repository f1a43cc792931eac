/**
 * The docs' code blocks are generated from the typechecked examples (docs/examples/*.ts),
 * so that what GitHub, npm and the typedoc site show is code CI compiles and runs.
 *
 * A generated block sits between two HTML comments, which GitHub, npm and typedoc all
 * leave unrendered; the opening one names the source file (from the repository root) and,
 * after `#`, a region of it (`// #region name` … `// #endregion name`):
 *
 *     <!-- include: docs/examples/configuration.ts#parse -->
 *     ```ts
 *     …the region, generated…
 *     ```
 *     <!-- /include -->
 *
 * `sync-docs` rewrites every such block from its source (and turns a leftover typedoc
 * `{@includeCode ../examples/x.ts#region}` line into one); `sync-docs --check` changes
 * nothing and exits 1, naming the file and the block, when a block differs from its
 * source, a source or region is missing, or an `{@includeCode}` is left (CI runs it).
 *
 * Files: README.md, docs/index.md, docs/guides/*.md, packages/* /README.md, apps/* /README.md,
 * tools/* /README.md. None of them may hold a TSDoc `{@link …}` outside a code block: GitHub
 * and npm show it literally (see {@link tsdocLinkProblems}).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The opening marker: `<!-- include: <path>[#region] -->`. */
export const OPEN = /^<!-- include: (\S+?)(?:#([\w-]+))? -->$/;
const CLOSE = '<!-- /include -->';
/** A typedoc directive line as the guides wrote them before: `{@includeCode path#region}`. */
const INCLUDE_CODE = /^\{@includeCode ([^#}\s]+)(?:#([\w-]+))?\}$/;
const REGION_LINE = /^\s*\/\/\s*#(end)?region\b/;

/** A problem with one block, for the check's report. */
export class SyncError extends Error {}

/** The markdown files whose blocks are generated, absolute, sorted. */
export function docFiles(root: string): string[] {
  const inFolder = (folder: string, pick: (name: string) => string | undefined) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder))
          .sort()
          .map(pick)
          .filter((file): file is string => file !== undefined && existsSync(file))
      : [];
  return [
    join(root, 'README.md'),
    join(root, 'docs', 'index.md'),
    ...inFolder('docs/guides', (name) =>
      name.endsWith('.md') ? join(root, 'docs', 'guides', name) : undefined,
    ),
    ...inFolder('packages', (name) => join(root, 'packages', name, 'README.md')),
    ...inFolder('apps', (name) => join(root, 'apps', name, 'README.md')),
    ...inFolder('tools', (name) => join(root, 'tools', name, 'README.md')),
  ].filter((file) => existsSync(file));
}

/**
 * The lines of a region of a source file (the whole file without a region name), with
 * the region markers of nested regions left out and the common indent removed.
 *
 * @throws {@link SyncError} when the region is not in the file
 */
export function extractRegion(source: string, region: string | undefined, where: string): string {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  let body = lines;
  if (region !== undefined) {
    const start = lines.findIndex((line) =>
      new RegExp(`^\\s*//\\s*#region ${region}\\s*$`).test(line),
    );
    const end = lines.findIndex(
      (line, index) =>
        index > start && new RegExp(`^\\s*//\\s*#endregion ${region}\\s*$`).test(line),
    );
    if (start < 0 || end < 0) throw new SyncError(`${where}: no region '${region}'`);
    body = lines.slice(start + 1, end);
  }
  body = body.filter((line) => !REGION_LINE.test(line));
  while (body.length > 0 && body[0]!.trim() === '') body.shift();
  while (body.length > 0 && body.at(-1)!.trim() === '') body.pop();
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length),
  );
  return body.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

function fenceLanguage(path: string): string {
  const extension = path.split('.').at(-1) ?? '';
  return { ts: 'ts', mts: 'ts', js: 'js', mjs: 'js', json: 'json', sh: 'sh' }[extension] ?? '';
}

/** The generated block for a source and region: opening marker, fenced code, closing marker. */
function renderBlock(root: string, path: string, region: string | undefined): string[] {
  const file = join(root, path);
  const where = `${path}${region ? `#${region}` : ''}`;
  if (!existsSync(file)) throw new SyncError(`${where}: no such file`);
  const code = extractRegion(readFileSync(file, 'utf8'), region, where);
  return [
    `<!-- include: ${where} -->`,
    `\`\`\`${fenceLanguage(path)}`,
    ...code.split('\n'),
    '```',
    CLOSE,
  ];
}

/**
 * A markdown text with every generated block rewritten from its source, and every
 * `{@includeCode}` line turned into such a block (its path resolved from `file`).
 *
 * @param root - the repository root
 * @param file - the markdown file's absolute path
 * @param text - its text
 * @returns the synced text
 * @throws {@link SyncError} naming the file and line of a block that cannot be generated
 */
export function syncText(root: string, file: string, text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  const name = relative(root, file);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const open = OPEN.exec(line);
    const legacy = INCLUDE_CODE.exec(line.trim());
    if (open === null && legacy === null) {
      out.push(line);
      continue;
    }
    const at = `${name}:${index + 1}`;
    try {
      if (open !== null) {
        const close = lines.indexOf(CLOSE, index + 1);
        if (close < 0) throw new SyncError(`no '${CLOSE}' after it`);
        out.push(...renderBlock(root, open[1]!, open[2]));
        index = close;
      } else {
        const path = relative(root, resolve(dirname(file), legacy![1]!));
        out.push(...renderBlock(root, path, legacy![2]));
      }
    } catch (error) {
      throw new SyncError(`${at}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return out.join('\n');
}

/** The published docs site (GitHub Pages, built by .github/workflows/pages.yml). */
export const DOCS_SITE = 'https://tool-search.github.io/tool-search/';

/**
 * What a published README (one npm shows: packages/* and apps/*) must not hold: a
 * relative link, broken on npm, and the lack of the docs address.
 *
 * @param text - the README's text
 * @returns the problems, empty when none
 * @throws nothing
 */
export function publishedReadmeProblems(text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(/\]\((?!https?:|mailto:|#)([^)\s]+)\)/g)) {
    problems.push(`relative link ${match[1]} (broken on npm; link to ${DOCS_SITE}…)`);
  }
  if (!text.includes(DOCS_SITE)) problems.push(`no link to the docs site ${DOCS_SITE}`);
  return problems;
}

/**
 * The TSDoc `{@link …}` tags of a markdown text outside its fenced code blocks: GitHub and
 * npm render them literally, so a README or guide links with a Markdown link to the
 * docs site (`[\`name\`](https://tool-search.github.io/tool-search/functions/…)`) or
 * names the export in a code span instead.
 *
 * @param text - the markdown text
 * @returns one problem per tag, naming its line; empty when none
 * @throws nothing
 */
export function tsdocLinkProblems(text: string): string[] {
  const problems: string[] = [];
  let fenced = false;
  for (const [index, line] of text.split('\n').entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/\{@link(?:code|plain)?\b[^}]*\}?/g)) {
      problems.push(
        `line ${index + 1}: ${match[0]} renders literally on GitHub and npm (use a Markdown link to ${DOCS_SITE}… or a code span)`,
      );
    }
  }
  return problems;
}
