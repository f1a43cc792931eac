import type { Ajv } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { RE2JS } from 're2js';
import { defaultExport, lazyModules, namedExport } from '../node-require.js';

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

const modules = lazyModules(import.meta.url, {
  // Only with a module loader: where there is none, code generation is refused too.
  ajv: { id: 'ajv' },
  ajv2019: { id: 'ajv/dist/2019.js' },
  ajv2020: { id: 'ajv/dist/2020.js' },
  ajvFormats: { id: 'ajv-formats' },
  re2js: { id: 're2js', load: () => import('re2js') },
  formats: { id: 'ajv-formats/dist/formats.js', load: () => import('ajv-formats/dist/formats.js') },
});

let ajv: AjvLibraries | undefined;

/**
 * ajv, loaded on first use.
 *
 * @returns ajv's classes and ajv-formats
 * @throws `Error` where the runtime has no synchronous module loader (ajv is not needed
 * there: code generation is refused)
 */
export function loadAjv(): AjvLibraries {
  ajv ??= {
    Ajv: namedExport(modules.get('ajv'), 'Ajv') as typeof Ajv,
    Ajv2019: namedExport(modules.get('ajv2019'), 'Ajv2019') as typeof Ajv2019,
    Ajv2020: namedExport(modules.get('ajv2020'), 'Ajv2020') as typeof Ajv2020,
    addFormats: defaultExport(modules.get('ajvFormats')) as (ajv: AnyAjv) => unknown,
  };
  return ajv;
}

/**
 * Whether ajv can be loaded here.
 *
 * @returns true where the runtime has a module loader that finds ajv
 * @throws nothing
 */
export function ajvLoadable(): boolean {
  return ajv !== undefined || modules.available('ajv');
}

/**
 * re2js, the linear-time pattern engine.
 *
 * @returns its `RE2JS` class
 * @throws `Error` while it is still being imported (a check in the same turn as the import)
 */
export function loadRe2(): typeof RE2JS {
  return namedExport(modules.get('re2js'), 'RE2JS') as typeof RE2JS;
}

/**
 * ajv-formats' format tests, without ajv (its format module stands alone).
 *
 * @returns the formats by name
 * @throws `Error` while they are still being imported
 */
export function loadFormats(): Record<string, unknown> {
  return namedExport(modules.get('formats'), 'fullFormats') as Record<string, unknown>;
}
