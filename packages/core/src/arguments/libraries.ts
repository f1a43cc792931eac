import type { Ajv } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { RE2JS } from 're2js';

/**
 * The validation libraries, loaded when a check first needs them: ajv, ajv-formats and
 * re2js take a good part of a cold start to load, and a process that never checks a
 * call should not pay for them.
 *
 * Where the runtime has Node's module loader (Node, Bun, Deno: reached through
 * `process.getBuiltinModule`, never a static `node:` import) they load synchronously on
 * first use. Elsewhere (Cloudflare's workerd, a browser, a bundle) re2js and
 * ajv-formats' format tests are imported as soon as this module is, by `import()`
 * that a bundler follows, and ajv is not loaded at all: those runtimes refuse the
 * code ajv generates, so the interpreter checks there.
 */

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/** ajv's classes and its formats plug-in. */
export interface AjvLibraries {
  Ajv: typeof Ajv;
  Ajv2019: typeof Ajv2019;
  Ajv2020: typeof Ajv2020;
  addFormats: (ajv: AnyAjv) => unknown;
}

type Require = (id: string) => unknown;

function nodeRequire(): Require | undefined {
  const host = globalThis as {
    process?: { getBuiltinModule?: (id: string) => unknown };
  };
  try {
    const module = host.process?.getBuiltinModule?.('node:module') as
      | { createRequire?: (from: string) => Require }
      | undefined;
    return module?.createRequire?.(import.meta.url);
  } catch {
    return undefined;
  }
}

const require = nodeRequire();

let ajv: AjvLibraries | undefined;
let re2: typeof RE2JS | undefined;
let formats: Record<string, unknown> | undefined;

if (!require) {
  // No synchronous loader: load what the interpreter needs now, ready before a request.
  void import('re2js').then(
    (loaded) => {
      re2 ??= loaded.RE2JS;
    },
    () => undefined,
  );
  void import('ajv-formats/dist/formats.js').then(
    (loaded) => {
      formats ??= (loaded as { fullFormats: Record<string, unknown> }).fullFormats;
    },
    () => undefined,
  );
}

/**
 * ajv, loaded on first use.
 *
 * @returns ajv's classes and ajv-formats
 * @throws `Error` where the runtime has no synchronous module loader (ajv is not needed
 * there: code generation is refused)
 */
export function loadAjv(): AjvLibraries {
  if (ajv) return ajv;
  if (!require) throw new Error('ajv cannot be loaded on this runtime (no module loader)');
  ajv = {
    Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv,
    Ajv2019: (require('ajv/dist/2019.js') as { Ajv2019: typeof Ajv2019 }).Ajv2019,
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
    addFormats: (require('ajv-formats') as { default: (ajv: AnyAjv) => unknown }).default,
  };
  return ajv;
}

/**
 * Whether ajv can be loaded here.
 *
 * @returns true where the runtime has a synchronous module loader
 * @throws nothing
 */
export function ajvLoadable(): boolean {
  return require !== undefined || ajv !== undefined;
}

/**
 * re2js, the linear-time pattern engine.
 *
 * @returns its `RE2JS` class
 * @throws `Error` while it is still loading (a check in the same turn as the import)
 */
export function loadRe2(): typeof RE2JS {
  if (re2) return re2;
  if (!require) throw new Error('the pattern engine re2js is still loading; check again');
  re2 = (require('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return re2;
}

/**
 * ajv-formats' format tests, without ajv (its format module stands alone).
 *
 * @returns the formats by name
 * @throws `Error` while they are still loading
 */
export function loadFormats(): Record<string, unknown> {
  if (formats) return formats;
  if (!require) throw new Error('the format checks are still loading; check again');
  formats = (require('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> })
    .fullFormats;
  return formats;
}
