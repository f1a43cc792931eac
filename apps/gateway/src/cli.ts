#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Command, EXIT_USAGE, parseCommandLine, USAGE, UsageError } from './args.js';
import { runCommand } from './commands.js';

/**
 * Runs `tool-search-gateway` with a command line and returns its exit code. Long-lived
 * commands (`serve`, `recorded-server`) resolve once serving; the process then lives
 * as long as its transport.
 *
 * @param argv - the arguments after the script
 * @returns the exit code: 0 done, 1 failed, 2 bad command line or config file
 */
export async function main(argv: readonly string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n\n${USAGE[error.command ?? 'main']}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  if (command.command === 'help') {
    process.stdout.write(`${USAGE[command.topic]}\n`);
    return 0;
  }
  return runCommand(command);
}

/**
 * Runs {@link main} as the process's command: sets `process.exitCode` from its exit code,
 * and prints an unexpected error to stderr with exit code 1. The installed bin
 * (`bin/tool-search-gateway.js`) calls it; so does this file when it is the script run.
 *
 * @param argv - the arguments after the script
 * @returns a promise that settles when the command returns (never rejects)
 */
export function runCli(argv: readonly string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      if (code !== 0) process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) void runCli(process.argv.slice(2));
