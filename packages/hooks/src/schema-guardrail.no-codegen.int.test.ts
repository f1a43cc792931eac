import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { judgeCalls } from './__fixtures__/codegen-free-calls.js';

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const child = fileURLToPath(new URL('./__fixtures__/codegen-free-child.ts', import.meta.url));

// Before the interpreting validator, all 19 outcomes differed: the bridge fell back to
// "required only" and the guardrail denied every call, valid ones too.
describe('the bridge check and the schema guardrail without code generation', () => {
  it('answer every call (valid, repairable, invalid, hostile) as they do with it', async () => {
    const here = await judgeCalls();
    const { stdout } = await run(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', 'tsx', child],
      { cwd: packageRoot, maxBuffer: 16 * 1024 * 1024 },
    );
    const there = JSON.parse(stdout) as Awaited<ReturnType<typeof judgeCalls>>;
    expect(here.canGenerateCode).toBe(true);
    expect(there.canGenerateCode).toBe(false);
    expect(there.answers).toEqual(JSON.parse(JSON.stringify(here.answers)));
    const verdicts = here.answers.map(
      (answer) => (answer as { guardrail: { allow: boolean } }).guardrail.allow,
    );
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(3);
    expect(verdicts.filter((allow) => !allow).length).toBeGreaterThan(8);
    // Repaired by the bridge, then allowed by the guardrail on the repaired arguments.
    const repaired = here.answers.filter((answer) => {
      const { call, guardrail } = answer as { call: unknown; guardrail: { allow: boolean } };
      return !guardrail.allow && JSON.stringify(answer).includes('"status":"ok"') && call;
    });
    expect(repaired.length).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
