import { execFile } from 'node:child_process';
import { CLI, FIXTURE_ENV } from './paths.js';

/** What a finished CLI process left behind. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/cli.js ...args` to completion, without a TTY and without colour.
 *
 * @param args - the command line
 * @param options.env - extra environment
 * @param options.timeoutMs - kill it after this long @defaultValue 60000
 * @returns its exit code and output
 */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: { ...process.env, ...FIXTURE_ENV, NO_COLOR: '1', ...options.env },
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
        ...(options.cwd ? { cwd: options.cwd } : {}),
      },
      (error, stdout, stderr) => {
        const code =
          error === null ? 0 : typeof error.code === 'number' ? error.code : (error.code ?? null);
        resolve({ code: code as number | null, stdout, stderr });
      },
    );
  });
}
