import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(packageDir, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The relative imports of a source file (type-only ones included), as file paths. */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

function findCircle(files: readonly string[]): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of localImports(file)) {
      const circle = visit(next);
      if (circle) return circle;
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    const circle = visit(file);
    if (circle) return circle.map((path) => relative(sourceDir, path));
  }
  return undefined;
}

// Fails the import of any `@redis/…` module, naming who imported it.
const refuseRedis = `
export async function resolve(specifier, context, next) {
  if (specifier === '@redis/client' || specifier.startsWith('@redis/')) {
    throw new Error('loaded ' + specifier + ' from ' + context.parentURL);
  }
  return next(specifier, context);
}`;

function importRefusingRedis(entry: string) {
  const register = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(refuseRedis)}`)});`;
  return spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(entry).href)});`,
    ],
    { encoding: 'utf8', timeout: 20_000 },
  );
}

describe('the package import graph', () => {
  it('has no import circle inside src, type-only imports included', () => {
    expect(findCircle(sourceFiles(sourceDir))).toBeUndefined();
  });

  it.each(['index.js', 'config/index.js', 'review/index.js', 'store/memory/index.js'])(
    'loads no Redis client when the built entry dist/%s is imported',
    (file) => {
      const entry = join(packageDir, 'dist', file);
      expect(existsSync(entry), 'build the package first').toBe(true);
      const result = importRefusingRedis(entry);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    },
  );

  it('would notice a Redis client loaded by an entry (the check itself works)', () => {
    const result = importRefusingRedis(join(packageDir, 'dist', 'store', 'redis', 'index.js'));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('loaded @redis/client');
  });
});
