import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, FIXTURE_ENV, UNMATCHED_RULES_CONFIG } from './__fixtures__/paths.js';
import { childPids, waitForExit } from './__fixtures__/processes.js';

describe('serve with rules that match no tool', () => {
  it('warns on stderr about each unmatched pattern once the servers are up', async () => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'serve',
        '--config',
        UNMATCHED_RULES_CONFIG,
        '--transport',
        'http',
        '--port',
        '0',
        '--token',
        'unmatched-rules-token-0123456789',
      ],
      { env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/listening on/.test(stderr) && stderr.includes("'write_file' matches no tool")) {
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
    } finally {
      if (child.pid !== undefined && child.exitCode === null) {
        const children = childPids(child.pid);
        child.kill('SIGTERM');
        await waitForExit([child.pid, ...children]);
      }
    }
    const warnings = stderr.split('\n').filter((line) => line.includes('matches no tool'));
    expect(warnings).toEqual([
      `warning: ${UNMATCHED_RULES_CONFIG}: guardrails.deny.tools[1] 'github/delete_*' matches no tool`,
      `warning: ${UNMATCHED_RULES_CONFIG}: approval.require.tools[1] 'write_file' matches no tool`,
    ]);
  }, 60_000);
});
