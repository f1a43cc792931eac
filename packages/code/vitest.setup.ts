import { execFileSync } from 'node:child_process';

// The sandbox's worker thread loads dist/sandbox-worker.js, which the TypeScript sources
// under test do not provide: build the package once before the tests.
export default function setup(): void {
  execFileSync('pnpm', ['exec', 'tsc', '-b'], { cwd: import.meta.dirname, stdio: 'inherit' });
}
