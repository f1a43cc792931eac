// zod, loaded when a schema of core is first used rather than when core is imported
// (a fresh process that only searches never loads it: benchmarks guide, cold start).
// Where the runtime has a synchronous loader it is required then (Node's CommonJS build
// of zod: its schemas and errors interoperate with those of the ESM build, zod 4 checks
// `instanceof` by traits); elsewhere it is imported when core loads.

import type { z as Zod } from 'zod/v4';
import { ToolSearchError } from './errors.js';
import { lazyModules, namedExport } from './node-require.js';

// Marked pure, with `import.meta.url` read in a function (bundlers keep a bare read of
// it): a bundle that never reads a lazy schema drops this statement, and zod with it.
const modules = /* @__PURE__ */ lazyModules(/* @__PURE__ */ (() => import.meta.url)(), {
  zod: { id: 'zod/v4', load: () => import('zod/v4') },
});

/**
 * zod's `z`, loaded on first use.
 *
 * @throws {@link ToolSearchError} `module_unavailable` when zod cannot be loaded
 * @internal
 */
export function zod(): typeof Zod {
  try {
    return namedExport(modules.get('zod'), 'z') as typeof Zod;
  } catch (error) {
    throw new ToolSearchError(
      'module_unavailable',
      `zod (a peer dependency of @tool-search/core) could not be loaded: ${(error as Error).message}`,
      { cause: error, data: { path: 'zod/v4' } },
    );
  }
}

/**
 * A schema built on first use: the object handed out stands for the schema `build`
 * returns (every property, `in`, its keys and its prototype are the schema's), so that
 * it can be parsed with, composed into other schemas and checked with `instanceof`.
 *
 * @param build - makes the schema with zod's `z`
 * @returns the stand-in
 * @throws nothing (a use of it throws what {@link zod} throws)
 * @internal
 */
export function lazySchema<T extends object>(build: (z: typeof Zod) => T): T {
  let schema: T | undefined;
  const real = (): T => {
    schema ??= build(zod());
    return schema;
  };
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => Reflect.get(real(), key, real()),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // A proxy may not report a property its target lacks as non-configurable.
      if (descriptor !== undefined) descriptor.configurable = true;
      return descriptor;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
