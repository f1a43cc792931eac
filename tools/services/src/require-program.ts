import { execFileSync } from 'node:child_process';

/**
 * Finds an installed program: the first of `paths` that runs with `-v`. The tests
 * that need one never skip: a missing program fails them with the install command.
 *
 * @param name - the program's name, for the message
 * @param paths - where to look, in order (a bare name is looked up in `PATH`)
 * @param apt - the Debian package that installs it
 * @returns the first path that runs
 * @throws an `Error` naming `apt-get install -y <apt>` when none runs
 */
export function requireProgram(name: string, paths: readonly string[], apt: string): string {
  for (const candidate of paths) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Try the next place.
    }
  }
  throw new Error(
    `${name} is not installed: apt-get install -y ${apt} (bash .ci/run installs it before the tests).`,
  );
}
