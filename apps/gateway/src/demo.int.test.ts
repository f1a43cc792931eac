import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run.js';

/** Processes whose command line names a demo folder (the filesystem server's does). */
function demoProcesses(): string[] {
  try {
    return execFileSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('tool-search-demo-'));
  } catch {
    return []; // no ps here
  }
}

function demoFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('tool-search-demo-'));
}

describe('demo', () => {
  it('runs to completion with no configuration, no TTY and no colour', async () => {
    const before = new Set(demoFolders());
    const run = await runCli(['demo'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    // The bridge tools, the tokens saved, an unwrapped activity line.
    expect(out).toMatch(/tool_search/);
    expect(out).toMatch(/tool_describe/);
    expect(out).toMatch(/tool_call/);
    expect(out).toMatch(/tokens saved: [\d,]+ per turn/);
    // The count the bridge stands in for is the one its tool_search ranks over.
    const standsFor = /stand in for ([\d,]+) deferred tools/.exec(out)?.[1];
    expect(standsFor).toBeDefined();
    expect(/ranked over ([\d,]+) deferred tools/.exec(out)?.[1]).toBe(standsFor);
    expect(out).toMatch(/tool_program \(programs\)/);
    expect(out).not.toMatch(/tool_program \(pinned\)/);
    expect(out).toMatch(/tool_call → filesystem read_text_file/);
    // Policy on the real tool: one approval stop and one guardrail denial.
    expect(out).toMatch(/tool_call → filesystem write_file/);
    expect(out).toMatch(/tool_call → everything get-env/);
    // Learning from use: the search that led to a call ranks the tool first afterwards.
    const learning = out.slice(out.indexOf('6. Learning from use'), out.indexOf('7. tool_program'));
    const rankBefore = Number(/get_file_info is #(\d+) \(first/.exec(learning)?.[1]);
    expect(rankBefore).toBeGreaterThan(1);
    expect(learning).toMatch(/learned for get_file_info: (?=.*\bsize 1\b)(?=.*\bdisk 1\b)/);
    expect(learning).toMatch(/a later session, same search: get_file_info is #1\b/);
    // One program fans out three calls, and the guardrail stops a fourth inside it.
    expect(out).toMatch(/"sums":\["The sum of 1 and 2 is 3\.?","/);
    expect(out).toMatch(/"env":"denied"/);
    expect(out).toMatch(/tool_program → everything get-sum/);
    // A prompt and a resource of the everything server, through the gateway.
    expect(out).toMatch(/prompts\/get args-prompt .* → .*Lisbon/);
    expect(out).toMatch(/resources\/read demo:\/\/resource\S* → \S/);
    expect(out).toMatch(/resource demo:\/\/resource/);
    // Plain text when not on a TTY.
    expect(out).not.toMatch(/\u001b\[/);
    // The temporary folder and the upstream processes are gone.
    expect(demoFolders().filter((name) => !before.has(name))).toEqual([]);
    expect(demoProcesses()).toEqual([]);
  });
});
