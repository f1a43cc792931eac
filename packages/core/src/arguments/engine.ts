/**
 * Which validator checks arguments: ajv, which compiles each schema to JavaScript
 * (fast, but refused where code generation from strings is: Cloudflare Workers,
 * Vercel's edge functions, a strict Content Security Policy, Node with
 * `--disallow-code-generation-from-strings`), or the interpreter, which walks the
 * schema. Both give the same verdicts, repairs and bounds.
 */

import { ajvLoadable } from './libraries.js';

/**
 * How arguments are checked. `'auto'`: ajv where the runtime allows code generation
 * from strings and can load ajv, else the interpreter. `'compiled'`: ajv always (on a runtime without
 * code generation every schema is then `unchecked`). `'interpreted'`: the interpreter
 * always.
 */
export type ValidatorEngine = 'auto' | 'compiled' | 'interpreted';

let generation: boolean | undefined;

/**
 * Whether this runtime lets code be generated from strings (`new Function`), tried
 * once per process.
 *
 * @returns true where `new Function` works
 * @throws nothing
 */
export function canGenerateCode(): boolean {
  if (generation === undefined) {
    try {
      generation = new Function('return true')() === true;
    } catch {
      generation = false;
    }
  }
  return generation;
}

/**
 * The engine `'auto'` stands for on this runtime.
 *
 * @param engine - the engine asked for
 * @returns `'compiled'` or `'interpreted'`
 * @throws nothing
 */
export function resolveEngine(engine: ValidatorEngine): 'compiled' | 'interpreted' {
  if (engine !== 'auto') return engine;
  return canGenerateCode() && ajvLoadable() ? 'compiled' : 'interpreted';
}
