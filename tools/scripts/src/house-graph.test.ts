// The dependency rule of CONTRIBUTING.md, checked over the whole house: which package may
// depend on which, that the protocol library never reaches its hosting, and that no
// package's folders import each other in a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function libraries(): Map<string, { dir: string; manifest: Manifest }> {
  const found = new Map<string, { dir: string; manifest: Manifest }>();
  for (const name of readdirSync(join(root, 'packages'))) {
    const dir = join(root, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    found.set(manifest.name, { dir, manifest });
  }
  return found;
}

function siblings(manifest: Manifest, all: ReadonlySet<string>, withDev: boolean): string[] {
  const fields = [manifest.dependencies, manifest.peerDependencies];
  if (withDev) fields.push(manifest.devDependencies);
  return [...new Set(fields.flatMap((field) => Object.keys(field ?? {})))]
    .filter((dep) => all.has(dep))
    .sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((entry) => entry.fileName);
}

/** The first circle in a graph, if any. */
function findCircle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const circle = visit(node);
    if (circle) return circle;
  }
  return undefined;
}

/** The folders of a package's `src` and which of them import which (relative imports). */
function folderGraph(dir: string): Map<string, Set<string>> {
  const src = join(dir, 'src');
  const folderOf = (file: string) => relative(src, dirname(file)).split(sep)[0] || '.';
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    if (/\.test(-d)?\.ts$/.test(file) || file.includes(`${sep}__fixtures__${sep}`)) continue;
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(file), specifier));
      // A folder's own index re-exports from elsewhere by design (the root lists the API).
      if (to !== from && from !== '.') edges.add(to);
    }
  }
  return graph;
}

describe('the house', () => {
  const all = libraries();
  const names = new Set(all.keys());

  it('keeps the dependency rule: core alone, the leaves on core only, mcp never on its hosting', () => {
    const on = (name: string) => siblings(all.get(name)!.manifest, names, false);
    expect(on('@tool-search/core')).toEqual([]);
    for (const leaf of ['toolsets', 'bridge', 'hooks', 'providers']) {
      expect(on(`@tool-search/${leaf}`), leaf).toEqual(['@tool-search/core']);
    }
    expect(siblings(all.get('@tool-search/mcp')!.manifest, names, true)).not.toContain(
      '@tool-search/mcp-http',
    );
    expect(on('@tool-search/mcp-http')).toContain('@tool-search/mcp');
  });

  it('has no circle between packages (development dependencies included)', () => {
    const graph = new Map(
      [...all].map(([name, { manifest }]) => [name, new Set(siblings(manifest, names, true))]),
    );
    expect(findCircle(graph)).toBeUndefined();
  });

  it('has no file of @tool-search/mcp (tests and fixtures included) that reaches its hosting package', () => {
    const dir = all.get('@tool-search/mcp')!.dir;
    const reaching = sourceFiles(join(dir, 'src')).filter((file) =>
      importsOf(file).some(
        (specifier) =>
          specifier.startsWith('@tool-search/mcp-http') ||
          (specifier.startsWith('.') &&
            resolve(dirname(file), specifier).startsWith(join(root, 'packages', 'mcp-http'))),
      ),
    );
    expect(reaching.map((file) => relative(root, file))).toEqual([]);
  });

  it.each([...all.keys()])('%s has no circle between the folders of its src', (name) => {
    expect(findCircle(folderGraph(all.get(name)!.dir))).toBeUndefined();
  });

  it('would see a circle (the check itself works)', () => {
    const planted = new Map([
      ['gateway', new Set(['console'])],
      ['console', new Set(['gateway'])],
    ]);
    expect(findCircle(planted)).toEqual(['gateway', 'console', 'gateway']);
  });
});
