import { describe, expect, it } from 'vitest';
import { inspectInputSchema, validateArguments } from '../validate.js';
import { comparable, engineRuns, runAll } from './__fixtures__/engine-runs.js';
import { canGenerateCode, resolveEngine } from './engine.js';

// The differential: ajv's compiled code and the interpreter answer every check alike,
// to the violation's order and the keywords left unchecked. The same comparison runs
// again in a process without code generation (no-codegen.int.test.ts).
describe('the interpreting validator against ajv', () => {
  const runs = engineRuns();
  const compiled = runAll(runs, 'compiled');
  const interpreted = runAll(runs, 'interpreted');

  it('gives the same result on each case of the JSON Schema test suite and the corpus', () => {
    const differences = runs
      .map((run, index) => ({
        name: run.name,
        compiled: comparable(compiled[index] as never),
        interpreted: comparable(interpreted[index] as never),
      }))
      .filter((entry) => JSON.stringify(entry.compiled) !== JSON.stringify(entry.interpreted));
    expect(differences).toEqual([]);
  });

  it('covers every kind of outcome (valid, repaired, invalid, unchecked, budget-skipped)', () => {
    const count = (test: (index: number) => boolean): number =>
      runs.filter((_, index) => test(index)).length;
    expect(runs.length).toBeGreaterThan(400);
    expect(count((i) => compiled[i]?.status === 'valid')).toBeGreaterThan(100);
    expect(count((i) => compiled[i]?.status === 'invalid')).toBeGreaterThan(100);
    expect(count((i) => compiled[i]?.status === 'unchecked')).toBeGreaterThan(5);
    const repaired = (i: number): boolean => {
      const check = compiled[i];
      return check?.status === 'valid' && check.repairs.length > 0;
    };
    expect(count(repaired)).toBeGreaterThan(5);
    const budget = (i: number): boolean => {
      const check = compiled[i];
      return check?.status !== 'unchecked' && !!check?.skipped?.some((s) => s.cause === 'budget');
    };
    expect(count(budget)).toBeGreaterThanOrEqual(3);
  });

  it('agrees with the suite where ajv does (draft-04 read as draft-07)', () => {
    const suite = runs.flatMap((run, index) => (run.name.startsWith('suite: ') ? [index] : []));
    const checked = suite.filter((index) => interpreted[index]?.status !== 'unchecked');
    expect(checked.length).toBeGreaterThan(250);
  });
});

describe('choosing the engine', () => {
  it("resolves 'auto' to ajv where code generation works (this process)", () => {
    expect(canGenerateCode()).toBe(true);
    expect(resolveEngine('auto')).toBe('compiled');
    expect(resolveEngine('interpreted')).toBe('interpreted');
  });

  it('refuses an unknown engine', () => {
    expect(() => validateArguments({}, {}, { validator: 'jit' as never })).toThrow(/validator/);
    expect(() => inspectInputSchema({}, { validator: 'jit' as never })).toThrow(/validator/);
  });

  it("repairs and refuses on the interpreter as on ajv: the issue's example", () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, n: { type: 'integer' } },
      required: ['title'],
      additionalProperties: false,
    };
    const options = { validator: 'interpreted' } as const;
    expect(validateArguments(schema, { title: 'x', n: '5' }, options)).toEqual({
      status: 'valid',
      arguments: { title: 'x', n: 5 },
      repairs: [{ path: 'arguments.n', from: '5', to: 5 }],
    });
    expect(validateArguments(schema, { title: 'x', evil: 'x', n: 'abc' }, options)).toEqual({
      status: 'invalid',
      total: 2,
      violations: [
        {
          path: 'arguments.evil',
          constraint: 'additionalProperties',
          message: 'is not an allowed property',
        },
        { path: 'arguments.n', constraint: 'type', message: 'must be integer' },
      ],
    });
  });

  it('reports a keyword the interpreter leaves out as ajv does (inspect)', () => {
    const schema = { type: 'object', properties: { p: { type: 'string', pattern: '^(?!etc)' } } };
    expect(inspectInputSchema(schema, { validator: 'interpreted' })).toEqual(
      inspectInputSchema(schema, { validator: 'compiled' }),
    );
    expect(inspectInputSchema(schema, { validator: 'interpreted' })).toMatchObject({
      status: 'checked',
      skipped: [{ keyword: 'pattern', pointer: '/properties/p/pattern', cause: 'unsupported' }],
    });
  });
});
