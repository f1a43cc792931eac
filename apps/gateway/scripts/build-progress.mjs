// `pnpm demo` builds the gateway and the packages it uses first, quiet but for errors. A
// first build takes a minute or more: this says that it runs, how long so far, and how
// long it took, so that the wait is never silent.
import { spawn } from 'node:child_process';

/**
 * Runs a command (a build), writing a line when it starts, a line every `everyMs` while
 * it runs, and one when it ends.
 *
 * @param {import('./build-progress.d.mts').ProgressOptions} options
 * @returns {Promise<number>} the command's exit code (1 when it could not start or was killed)
 */
export function runWithProgress(options) {
  const { command, args = [], label, out = process.stderr, everyMs = 10_000 } = options;
  const start = options.spawnChild ?? spawn;
  const now = options.now ?? Date.now;
  const begun = now();
  const seconds = () => Math.round((now() - begun) / 1000);
  out.write(`${label}...\n`);
  return new Promise((resolve) => {
    const child = start(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      shell: process.platform === 'win32',
    });
    const timer = setInterval(() => out.write(`  still building (${seconds()} s)\n`), everyMs);
    const end = (code) => {
      clearInterval(timer);
      out.write(code === 0 ? `Built in ${seconds()} s.\n` : `The build failed (exit ${code}).\n`);
      resolve(code);
    };
    child.once('error', (error) => {
      out.write(`Could not start ${command}: ${error.message}\n`);
      end(1);
    });
    child.once('exit', (code) => end(code ?? 1));
  });
}
