import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { comparable, engineRuns, runAll } from './__fixtures__/engine-runs.js';

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const child = fileURLToPath(new URL('./__fixtures__/no-codegen-child.ts', import.meta.url));

// What Cloudflare Workers, Vercel's edge functions and a strict CSP impose: no
// `eval`, no `new Function`. A child Node runs the differential there ('auto' must
// pick the interpreter), and its answers must be ajv's answers in this process.
describe('argument checking in a runtime without code generation', () => {
  it('answers the JSON Schema test suite and the corpus exactly as ajv does here', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', 'tsx', child],
      { cwd: packageRoot, maxBuffer: 64 * 1024 * 1024 },
    );
    const answer = JSON.parse(stdout) as {
      canGenerateCode: boolean;
      engine: string;
      compiledProbe: { status: string; reason?: string };
      results: unknown[];
    };
    expect(answer.canGenerateCode).toBe(false);
    expect(answer.engine).toBe('interpreted');
    // ajv itself cannot run there: what the check silently fell back from before.
    expect(answer.compiledProbe).toMatchObject({
      status: 'unchecked',
      reason: expect.stringMatching(/[Cc]ode generation/),
    });
    const runs = engineRuns();
    const here = runAll(runs, 'compiled').map(comparable);
    expect(answer.results).toHaveLength(runs.length);
    const differences = runs
      .map((entry, index) => ({
        name: entry.name,
        ajv: here[index],
        noCodegen: answer.results[index],
      }))
      .filter((entry) => JSON.stringify(entry.ajv) !== JSON.stringify(entry.noCodegen));
    expect(differences).toEqual([]);
  }, 120_000);
});
