import { type ArgumentCheck, validateArguments } from '../../validate.js';
import { ENGINE_CORPUS } from './engine-corpus.js';
import { suiteCases } from './suite-cases.js';

/** One check to run on both engines. */
export interface EngineRun {
  name: string;
  schema: unknown;
  data: unknown;
  repair: boolean;
}

/**
 * The differential's checks: the draft-04 JSON Schema test suite as it is (repair
 * off: pure verdicts), then the corpus of tool schemas (repair on).
 */
export function engineRuns(): EngineRun[] {
  const runs: EngineRun[] = suiteCases().map((entry) => ({
    name: `suite: ${entry.name}`,
    schema: entry.schema,
    data: entry.data,
    repair: false,
  }));
  for (const entry of ENGINE_CORPUS) {
    entry.data.forEach((data, index) => {
      runs.push({
        name: `corpus: ${entry.name} #${index}`,
        schema: entry.schema,
        data,
        repair: true,
      });
    });
  }
  return runs;
}

/**
 * A check's result as the differential compares it: everything but the reason of an
 * `unchecked` result, which quotes each engine's own error (ajv's compile error names
 * the base `#`, the interpreter its default base URI): both say the schema cannot be
 * checked, in different words.
 */
export function comparable(check: ArgumentCheck): unknown {
  return check.status === 'unchecked' ? { status: 'unchecked' } : check;
}

/**
 * Runs each check with one engine.
 *
 * @param runs - the checks
 * @param validator - the engine
 */
export function runAll(
  runs: readonly EngineRun[],
  validator: 'auto' | 'compiled' | 'interpreted',
): ArgumentCheck[] {
  return runs.map((run) =>
    validateArguments(run.schema, run.data, {
      validator,
      repair: run.repair,
      tool: 'differential',
    }),
  );
}
