// Run by no-codegen.int.test.ts in `node --disallow-code-generation-from-strings`:
// prints what this runtime's validator ('auto') answers on every differential case.
import { canGenerateCode, resolveEngine } from '../engine.js';
import { comparable, engineRuns, runAll } from './engine-runs.js';

const runs = engineRuns();
const compiledProbe = runAll(runs.slice(0, 1), 'compiled')[0];
process.stdout.write(
  JSON.stringify({
    canGenerateCode: canGenerateCode(),
    engine: resolveEngine('auto'),
    compiledProbe,
    results: runAll(runs, 'auto').map(comparable),
  }),
);
