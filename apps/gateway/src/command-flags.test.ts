import { textWidth } from '@tool-search/terminal';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, USAGE, UsageError } from './args.js';
import { COMMAND_FLAGS, type CommandName, HTTP_ONLY_MESSAGE } from './command-flags.js';
import { defaultText, type Flag } from './flag-table.js';

const commands = Object.keys(COMMAND_FLAGS) as CommandName[];
const flags = commands.flatMap((command) =>
  (COMMAND_FLAGS[command] as readonly Flag[]).map((flag) => ({ command, flag })),
);

/** The lines of one flag's entry in its command's help: its label line and those below it. */
function helpEntry(command: CommandName, flag: Flag): string {
  const lines = USAGE[command].split('\n');
  const start = lines.findIndex((line) => new RegExp(`^ {2}--${flag.name}\\b`).test(line));
  if (start === -1) return '';
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('    '));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

/** A command line that reaches the flag's check: the required flags, and HTTP for serve. */
function argvWith(command: CommandName, flag: Flag, value: string): string[] {
  return [
    command,
    ...(command === 'search' ? ['a query'] : []),
    ...((COMMAND_FLAGS[command] as readonly Flag[]).some((other) => other.name === 'config') &&
    flag.name !== 'config'
      ? ['--config', 'g.json']
      : []),
    ...(command === 'serve' && flag.name !== 'transport' ? ['--transport', 'http'] : []),
    ...(command === 'audit' && flag.name !== 'store' ? ['--store', 'redis://127.0.0.1:6379'] : []),
    `--${flag.name}`,
    value,
  ];
}

describe('COMMAND_FLAGS', () => {
  it.each(flags.map(({ command, flag }) => [command, flag.name, flag] as const))(
    '%s --help lists --%s, and the main help names it in the synopsis',
    (command, name, flag) => {
      expect(helpEntry(command, flag)).toMatch(new RegExp(`^ {2}--${name}\\b`));
      const lines = USAGE.main.split('\n');
      const at = lines.findIndex((line) => line.startsWith(`  tool-search-gateway ${command} `));
      const end = lines.findIndex((line, index) => index > at && !line.startsWith('    '));
      expect(lines.slice(at, end).join(' ')).toMatch(new RegExp(`--${name}\\b`));
    },
  );

  it.each(
    flags
      .filter(({ flag }) => defaultText(flag) !== undefined)
      .map(({ command, flag }) => [command, flag.name, defaultText(flag), flag] as const),
  )('%s --help gives the default of --%s (%s)', (command, _name, text, flag) => {
    expect(helpEntry(command, flag).replace(/\s+/g, ' ')).toContain(text);
  });

  it('wraps the options of every command within 86 columns, with no placeholder left', () => {
    for (const command of commands) {
      const help = USAGE[command];
      const options = help.slice(help.indexOf('Options:'));
      for (const line of options.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(86);
      expect(help).not.toContain('{default}');
    }
  });

  it.each(
    flags
      .filter(({ flag }) => flag.kind === 'integer')
      .map(({ command, flag }) => [command, flag.name, flag] as const),
  )(
    '%s refuses --%s outside its range and non-numbers with the table message',
    (command, name, flag) => {
      if (flag.kind !== 'integer') throw new Error('not an integer flag');
      const range = `--${name} must be between ${flag.min} and ${flag.max}`;
      expect(() => parseCommandLine(argvWith(command, flag, String(flag.max + 1)), {})).toThrow(
        range,
      );
      if (flag.min > 0) {
        expect(() => parseCommandLine(argvWith(command, flag, String(flag.min - 1)), {})).toThrow(
          range,
        );
      }
      expect(() => parseCommandLine(argvWith(command, flag, 'many'), {})).toThrow(
        `--${name} must be a whole number, got 'many'.`,
      );
      expect(parseCommandLine(argvWith(command, flag, String(flag.max)), {})).toMatchObject({
        [flag.key]: flag.max,
      });
    },
  );

  it.each(
    flags
      .filter(({ flag }) => flag.kind === 'choice')
      .map(({ command, flag }) => [command, flag.name, flag] as const),
  )('%s refuses a --%s outside its choices, naming them', (command, name, flag) => {
    if (flag.kind !== 'choice') throw new Error('not a choice flag');
    const error = (() => {
      try {
        parseCommandLine(argvWith(command, flag, 'bogus'), {});
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).command).toBe(command);
    expect((error as Error).message).toMatch(new RegExp(`^--${name} must be .*, got 'bogus'\\.$`));
    for (const choice of flag.choices) expect((error as Error).message).toContain(`'${choice}'`);
  });

  it('refuses every HTTP-only flag of serve on stdio, and the message names each of them', () => {
    const httpOnly = COMMAND_FLAGS.serve.filter((flag) => 'transport' in flag);
    expect(httpOnly.length).toBeGreaterThan(0);
    for (const flag of httpOnly) {
      expect(HTTP_ONLY_MESSAGE).toMatch(new RegExp(`--${flag.name}\\b`));
      const value =
        flag.name === 'allow-origin'
          ? 'http://localhost:6274'
          : flag.kind === 'choice'
            ? flag.choices[0]
            : '1';
      // A switch (--console) takes no value.
      const given = flag.kind === 'boolean' ? [] : [value];
      expect(() =>
        parseCommandLine(['serve', '--config', 'g.json', `--${flag.name}`, ...given], {}),
      ).toThrow(HTTP_ONLY_MESSAGE);
    }
    // The message names --transport itself, as the flag that lifts the refusal.
    const others = COMMAND_FLAGS.serve.filter(
      (flag) => !('transport' in flag) && flag.name !== 'transport',
    );
    for (const flag of others) {
      expect(HTTP_ONLY_MESSAGE).not.toMatch(new RegExp(`--${flag.name}\\b`));
    }
  });
});
