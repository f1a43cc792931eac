import { type Command, EXIT_USAGE } from './args.js';
import { ConfigFileError } from './errors.js';

/**
 * Runs a parsed command. Each command's module is loaded when it runs, so that
 * `--help` and bad command lines answer without loading the MCP stack.
 *
 * @param command - the command
 * @returns the exit code: a bad config file gives 2 with its message on stderr
 */
export async function runCommand(command: Exclude<Command, { command: 'help' }>): Promise<number> {
  try {
    return await dispatch(command);
  } catch (error) {
    if (error instanceof ConfigFileError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

async function dispatch(command: Exclude<Command, { command: 'help' }>): Promise<number> {
  switch (command.command) {
    case 'demo':
      return (await import('./demo.js')).runDemo();
    case 'serve':
      return (await import('./serve.js')).runServe(command);
    case 'search':
      return (await import('./inspect.js')).runSearch(command);
    case 'inspect':
      return (await import('./inspect.js')).runInspect(command);
    case 'audit':
      return (await import('./audit.js')).runAudit(command);
    case 'learning':
      return (await import('./learning-command.js')).runLearning(command);
    case 'reload':
      return (await import('./reload-command.js')).runReload(command);
    case 'login':
      return (await import('./login.js')).runLogin(command);
    case 'logout':
      return (await import('./login.js')).runLogout(command);
    case 'recorded-server': {
      const recorded = await import('./recorded-server.js');
      if (command.list) {
        const { formatInt, renderTable } = await import('./format.js');
        const entries = recorded.loadRecordedCatalog();
        const rows = recorded.recordedServerKeys(entries).map((key) => {
          const of = entries.filter((entry) => entry.server === key);
          return [key, of[0]?.package ?? '', formatInt(of.length)];
        });
        const table = renderTable(
          [{ header: 'server' }, { header: 'package' }, { header: 'tools', align: 'right' }],
          rows,
        );
        process.stdout.write(`${table.join('\n')}\n`);
        return 0;
      }
      try {
        await recorded.runRecordedServer({
          servers: command.servers,
          exclude: command.exclude,
          naming: command.naming,
        });
      } catch (error) {
        // An unknown server key or clashing raw names: a bad command line.
        process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
        return EXIT_USAGE;
      }
      return 0;
    }
  }
}
