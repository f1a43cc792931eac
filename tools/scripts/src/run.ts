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
 * @returns The exit code and output; never throws for a non-zero exit.
 * @throws Error when the program cannot be started.
 */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; echo?: boolean } = {},
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
    child.once('error', fail);
    child.once('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}
