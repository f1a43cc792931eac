import { parseArgs } from 'node:util';
import {
  type AuditOptions,
  COMMAND_FLAGS,
  type CommandName,
  HTTP_ONLY_MESSAGE,
  type InspectOptions,
  type LearningOptions,
  type RecordedServerOptions,
  type ReloadOptions,
  type SearchOptions,
  type ServeOptions,
} from './command-flags.js';
import { FlagError, parseArgsOptions, type RawFlagValues, readFlags } from './flag-table.js';
import type { LoginOptions } from './login-flags.js';

export type { CommandName } from './command-flags.js';
export {
  DEFAULT_HTTP_PORT,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  DEFAULT_SHUTDOWN_GRACE_SECONDS,
  TOKEN_ENV,
} from './flag-defaults.js';
export { USAGE } from './usage.js';

/** The exit code of a bad command line or a bad config file. */
export const EXIT_USAGE = 2;

/** A command line the CLI cannot run: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print, if known. */
    readonly command?: CommandName,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A parsed command line. */
export type Command =
  | { command: 'help'; topic: CommandName | 'main' }
  | { command: 'demo' }
  | ({ command: 'serve' } & ServeOptions)
  | ({ command: 'search'; query: string } & SearchOptions)
  | ({ command: 'inspect' } & InspectOptions)
  | ({ command: 'recorded-server' } & RecordedServerOptions)
  | ({ command: 'audit' } & AuditOptions)
  | ({ command: 'reload' } & ReloadOptions)
  | ({ command: 'learning'; action: LearningAction } & LearningOptions)
  | ({ command: 'login' | 'logout'; server: string } & LoginOptions);

/** What `learning` does with the learned terms. */
export type LearningAction = 'export' | 'import' | 'clear';
const LEARNING_ACTIONS: readonly LearningAction[] = ['export', 'import', 'clear'];

function isCommandName(value: string): value is CommandName {
  return Object.hasOwn(COMMAND_FLAGS, value);
}

/**
 * Parses the command line of `tool-search-gateway`.
 *
 * @param argv - the arguments after the script, e.g. `process.argv.slice(2)`
 * @param env - the environment (for the token variable) @defaultValue process.env
 * @returns the command to run
 * @throws {@link UsageError} for an unknown command or flag, a missing or bad value
 */
export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    return { command: 'help', topic: topic && isCommandName(topic) ? topic : 'main' };
  }
  if (!isCommandName(first)) {
    throw new UsageError(
      first.startsWith('-') ? `Unknown option '${first}'.` : `Unknown command '${first}'.`,
    );
  }
  const command = first;
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', topic: command };
  let values: RawFlagValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: parseArgsOptions(COMMAND_FLAGS[command]),
      strict: true,
      allowPositionals:
        command === 'search' ||
        command === 'learning' ||
        command === 'login' ||
        command === 'logout',
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split('\n')[0] ?? message, command);
  }
  try {
    return commandOf(command, values, positionals, env);
  } catch (error) {
    if (error instanceof FlagError) throw new UsageError(error.message, command);
    throw error;
  }
}

function commandOf(
  command: CommandName,
  values: RawFlagValues,
  positionals: string[],
  env: NodeJS.ProcessEnv,
): Exclude<Command, { command: 'help' }> {
  switch (command) {
    case 'demo':
      return { command };
    case 'serve': {
      const options = readFlags(command, COMMAND_FLAGS.serve, values, env);
      const httpOnly = COMMAND_FLAGS.serve.filter(
        (flag) => 'transport' in flag && values[flag.name] !== undefined,
      );
      if (options.transport === 'stdio' && httpOnly.length > 0) {
        throw new FlagError(HTTP_ONLY_MESSAGE);
      }
      return { command, ...options };
    }
    case 'search': {
      const query = positionals.join(' ').trim();
      if (query === '') throw new FlagError('search needs a query, e.g. "read a file".');
      const options = readFlags(command, COMMAND_FLAGS.search, values, env);
      return { command, ...options, query };
    }
    case 'inspect':
      return { command, ...readFlags(command, COMMAND_FLAGS.inspect, values, env) };
    case 'recorded-server':
      return { command, ...readFlags(command, COMMAND_FLAGS['recorded-server'], values, env) };
    case 'audit':
      return { command, ...readFlags(command, COMMAND_FLAGS.audit, values, env) };
    case 'reload':
      return { command, ...readFlags(command, COMMAND_FLAGS.reload, values, env) };
    case 'learning': {
      const action = positionals.join(' ').trim();
      if (!(LEARNING_ACTIONS as readonly string[]).includes(action)) {
        throw new FlagError(
          `learning needs one of ${LEARNING_ACTIONS.join(', ')}, got '${action}'.`,
        );
      }
      const options = readFlags(command, COMMAND_FLAGS.learning, values, env);
      return { command, action: action as LearningAction, ...options };
    }
    case 'login':
    case 'logout': {
      const [server, ...more] = positionals;
      if (server === undefined || server.trim() === '' || more.length > 0) {
        throw new FlagError(
          `${command} needs one server name, e.g. ${command} docs --config gateway.json.`,
        );
      }
      return { command, server, ...readFlags(command, COMMAND_FLAGS[command], values, env) };
    }
  }
}
