import { spawn } from 'node:child_process';

/** The outcome of a finished child process. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without a shell and collects its output.
 *
 * @param command - The program.
 * @param args - Its arguments.
 * @param options.cwd - The working folder.
 * @param options.env - Extra environment variables.
 * @param options.echo - Stream the output to this process's stdout/stderr as well.
 * @param options.timeoutMs - Kill the child (SIGTERM) after this long; it then ends with
 *   code 124 and a line on its stderr saying so. @defaultValue no limit
 * @returns The exit code and output; never throws for a non-zero exit.
 * @throws Error when the program cannot be started.
 */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; echo?: boolean; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (options.echo) process.stderr.write(chunk);
    });
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGTERM');
          }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (timedOut) {
        done({ code: 124, stdout, stderr: `${stderr}\nkilled after ${options.timeoutMs} ms` });
      } else done({ code: code ?? 1, stdout, stderr });
    });
  });
}
