import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// A fresh Node process per entry: only a clean module graph shows what an import loads.
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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

describe('the package entries', () => {
  it.each([
    'index.js',
    'config/index.js',
    'review/index.js',
    'store/memory/index.js',
    'auth/index.js',
  ])('loads no Redis client when the built entry dist/%s is imported', (file) => {
    const entry = join(packageDir, 'dist', file);
    expect(existsSync(entry), 'build the package first').toBe(true);
    const result = importRefusingRedis(entry);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('would notice a Redis client loaded by an entry (the check itself works)', () => {
    const result = importRefusingRedis(join(packageDir, 'dist', 'store', 'redis', 'index.js'));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('loaded @redis/client');
  });
});
