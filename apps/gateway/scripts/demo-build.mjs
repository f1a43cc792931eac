// The build step of `pnpm demo`: turbo builds the gateway and the packages it uses (errors
// only), with a progress line while it runs (see build-progress.mjs).
import { runWithProgress } from './build-progress.mjs';

const code = await runWithProgress({
  command: 'pnpm',
  args: [
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@tool-search/gateway...',
    '--output-logs=errors-only',
  ],
  label: 'Building the gateway and the packages it uses (a first build takes a minute or two)',
});
process.exitCode = code;
