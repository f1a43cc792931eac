/**
 * Heavy libraries loaded on first use, on every runtime. Where the runtime has Node's
 * module loader (Node, Bun, Deno: reached through `process.getBuiltinModule`, never a
 * static `node:` import) and the library can be resolved from here, it is required
 * synchronously when first needed. Elsewhere (Cloudflare's workerd, a browser, a
 * bundle run from another folder) it is imported with `import()`, which a bundler
 * follows, as soon as the module that needs it is loaded, so that it is there before
 * the first request.
 */

/** A synchronous `require`. */
type NodeRequire = ((id: string) => unknown) & { resolve?: (id: string) => string };

function nodeRequire(from: string): NodeRequire | undefined {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const module = host.process?.getBuiltinModule?.('node:module') as
      | { createRequire?: (from: string) => NodeRequire }
      | undefined;
    return module?.createRequire?.(from);
  } catch {
    return undefined;
  }
}

/**
 * One library: its module id, and its `import()` (a literal one, for bundlers), or no
 * `import()` for a library only a runtime with a module loader can use (ajv: it
 * generates code, which the runtimes without a loader refuse).
 */
export interface LazyModule {
  id: string;
  load?: () => Promise<unknown>;
}

/** Loads the libraries of one module (see the file's comment). */
export interface LazyModules<K extends string> {
  /**
   * A library: `module.exports` where it was required, its namespace where imported
   * (read it with {@link defaultExport} or {@link namedExport}).
   *
   * @throws `Error` when it cannot be loaded, or is still being imported
   */
  get(key: K): unknown;
  /** Whether a library can be had on this runtime (loaded, being imported, or resolvable). */
  available(key: K): boolean;
}

/**
 * A module's default export, whether it was required (CommonJS `module.exports`) or
 * imported (a namespace with `default`).
 *
 * @throws nothing
 */
export function defaultExport(module: unknown): unknown {
  return typeof module === 'object' && module !== null && 'default' in module
    ? (module as { default: unknown }).default
    : module;
}

/**
 * A named export, whether the module was required or imported.
 *
 * @throws nothing
 */
export function namedExport(module: unknown, name: string): unknown {
  const direct = (module as Record<string, unknown> | undefined)?.[name];
  if (direct !== undefined) return direct;
  return (defaultExport(module) as Record<string, unknown> | undefined)?.[name];
}

/**
 * The libraries of a module, loaded synchronously where they resolve, else imported now.
 *
 * @param from - the module's URL (`import.meta.url`)
 * @param modules - the libraries by key
 * @returns their loader
 * @throws nothing
 */
export function lazyModules<K extends string>(
  from: string,
  modules: Record<K, LazyModule>,
): LazyModules<K> {
  const require = nodeRequire(from);
  const loaded = new Map<K, unknown>();
  const pending = new Set<K>();
  const resolved = new Map<string, boolean>();
  const resolvable = (id: string): boolean => {
    let known = resolved.get(id);
    if (known === undefined) {
      try {
        known = require?.resolve?.(id) !== undefined;
      } catch {
        known = false;
      }
      resolved.set(id, known);
    }
    return known;
  };
  for (const key of Object.keys(modules) as K[]) {
    const entry = modules[key];
    if (!entry.load || resolvable(entry.id)) continue;
    pending.add(key);
    entry.load().then(
      (namespace) => {
        if (!loaded.has(key)) loaded.set(key, namespace);
        pending.delete(key);
      },
      () => pending.delete(key),
    );
  }
  return {
    get(key) {
      if (loaded.has(key)) return loaded.get(key);
      const { id } = modules[key];
      if (pending.has(key)) throw new Error(`${id} is still being imported; try again`);
      if (!require) throw new Error(`${id} cannot be loaded on this runtime`);
      const value = require(id);
      loaded.set(key, value);
      return value;
    },
    available(key) {
      return loaded.has(key) || pending.has(key) || resolvable(modules[key].id);
    },
  };
}
