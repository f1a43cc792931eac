// wink-nlp and the English model's code as one CommonJS file, `dist/wink.cjs`, written
// by core's build (bundle.mjs): where core runs from its build on a runtime with a
// module loader, the first search reads one file instead of the ~60 of the two packages.
// It is used only when the installed model is the version its code was bundled from
// (the model's JSON is still read from the installed package). Everywhere else (under
// the sources, on a runtime without a loader, in a bundler) the packages themselves load.

import { lazyModules } from './node-require.js';

const modules = lazyModules(import.meta.url, {
  // No `import()`: a bundler takes the packages themselves.
  bundled: { id: './wink.cjs' },
  model: { id: 'wink-eng-lite-web-model/package.json' },
});

/** The libraries of `wink.cjs`: wink-nlp and the parts of the model's code core loads. */
export type WinkPart = 'nlp' | 'sbd' | 'pos' | 'cer' | 'feature' | 'stem';

type Bundled = Partial<Record<WinkPart, unknown>> & { versions?: Record<string, string> };

let bundled: Bundled | null | undefined;

function readBundled(): Bundled | null {
  try {
    if (!modules.available('bundled')) return null;
    const file = modules.get('bundled') as Bundled;
    const installed = (modules.get('model') as { version?: unknown }).version;
    return file.versions?.['wink-eng-lite-web-model'] === installed ? file : null;
  } catch {
    return null;
  }
}

/**
 * A part of wink-nlp or of the model from `wink.cjs`, or `undefined` where that file
 * is not used (see the file's comment): then load the package itself.
 *
 * @internal
 * @throws nothing
 */
export function bundledWink(part: WinkPart): unknown {
  bundled ??= readBundled();
  return bundled?.[part];
}
