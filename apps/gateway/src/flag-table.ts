import type { ParseArgsConfig } from 'node:util';
import { textWidth, wrapText } from '@tool-search/terminal';

/** What every flag of a {@link FlagTable} declares. */
interface FlagBase {
  /** The flag without its dashes, e.g. `idle-timeout`. */
  readonly name: string;
  /** The property of the parsed options that holds its value, e.g. `idleTimeout`. */
  readonly key: string;
  /** The value's name in the help, e.g. `S` or `<file>` (choices: `a|b`; booleans: none). */
  readonly placeholder?: string;
  /**
   * The help text, wrapped to the help's width. `{default}` stands for the flag's
   * default as {@link defaultText} writes it.
   */
  readonly description: string;
  /** The transport the flag applies to; absent: every transport. */
  readonly transport?: 'http';
}

/** A flag whose value is a text; `--x ''` is refused unless it is required. */
export interface TextFlag extends FlagBase {
  readonly kind: 'text';
  /** Without it, the command refuses to run (`<command> needs --config <file>`). */
  readonly required?: true;
  /** The value when the flag is absent. */
  readonly default?: string;
  /** The environment variable read when the flag is absent (an empty one counts as absent). */
  readonly env?: string;
}

/** A flag whose value is a whole number within a range. */
export interface IntegerFlag extends FlagBase {
  readonly kind: 'integer';
  readonly min: number;
  readonly max: number;
  /** The value when the flag is absent. */
  readonly default?: number;
  /** A default that the command applies later (the options then leave the key out). */
  readonly documentedDefault?: number;
}

/** A flag whose value is one of a few words. */
export interface ChoiceFlag extends FlagBase {
  readonly kind: 'choice';
  readonly choices: readonly [string, ...string[]];
  /** The value when the flag is absent. */
  readonly default?: string;
}

/** A flag whose value is a comma-separated list; with `repeatable`, every occurrence adds to it. */
export interface ListFlag extends FlagBase {
  readonly kind: 'list';
  readonly repeatable?: true;
  /** The value when the flag is absent (or lists nothing); without it, the key is left out. */
  readonly default?: readonly [];
  /**
   * Checks one item of the list.
   *
   * @param item - the item, trimmed
   * @returns the item to keep
   * @throws {@link FlagError} when the item is bad
   */
  readonly item?: (item: string) => string;
}

/** A flag without a value: `true` when given. */
export interface BooleanFlag extends FlagBase {
  readonly kind: 'boolean';
  /** The value when the flag is absent; without it, the key is left out. */
  readonly default?: false;
}

/** One flag of a command: its name, type, help, default, checks and transport. */
export type Flag = TextFlag | IntegerFlag | ChoiceFlag | ListFlag | BooleanFlag;

/** The flags of one command, in the order of its help. */
export type FlagTable = readonly Flag[];

type ValueOf<F> = F extends { kind: 'integer' }
  ? number
  : F extends { kind: 'boolean' }
    ? boolean
    : F extends { kind: 'list' }
      ? string[]
      : F extends { kind: 'choice'; choices: readonly (infer C)[] }
        ? C
        : string;

type AlwaysSet<F> = F extends { default: unknown } | { required: true } ? true : false;

/**
 * The options that a {@link FlagTable} parses into: a key for each flag, present when
 * the flag has a default or is required, optional otherwise.
 */
export type FlagValues<T extends FlagTable> = {
  -readonly [F in T[number] as AlwaysSet<F> extends true ? F['key'] : never]: ValueOf<F>;
} & {
  -readonly [F in T[number] as AlwaysSet<F> extends true ? never : F['key']]?: ValueOf<F>;
};

/** A flag value the table refuses; its message names the flag and what it accepts. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

/**
 * The `node:util` `parseArgs` options of a table.
 *
 * @param table - the command's flags
 * @returns the options, each a string (repeatable: multiple) or a boolean
 * @throws nothing
 */
export function parseArgsOptions(table: FlagTable): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    table.map((flag) => [
      flag.name,
      flag.kind === 'boolean'
        ? { type: 'boolean' as const }
        : flag.kind === 'list' && flag.repeatable
          ? { type: 'string' as const, multiple: true }
          : { type: 'string' as const },
    ]),
  );
}

/** The raw values of `parseArgs`, by flag name. */
export type RawFlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

function integerOf(flag: IntegerFlag, value: string): number {
  if (!/^\d+$/.test(value.trim())) {
    throw new FlagError(`--${flag.name} must be a whole number, got '${value}'.`);
  }
  const parsed = Number(value);
  if (parsed < flag.min || parsed > flag.max) {
    throw new FlagError(
      `--${flag.name} must be between ${flag.min} and ${flag.max}, got ${value}.`,
    );
  }
  return parsed;
}

function choiceOf(flag: ChoiceFlag, value: string): string {
  if (flag.choices.includes(value)) return value;
  const choices = flag.choices.map((choice) => `'${choice}'`);
  const last = choices.pop();
  throw new FlagError(
    `--${flag.name} must be ${choices.length ? `${choices.join(', ')} or ${last}` : last}, got '${value}'.`,
  );
}

function listOf(flag: ListFlag, raw: RawFlagValues[string]): string[] {
  const texts = (Array.isArray(raw) ? raw : [raw]).filter((value) => typeof value === 'string');
  const items = texts.flatMap((text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
  return flag.item ? items.map(flag.item) : items;
}

/** The value of one flag, or undefined when it is absent and has no default. */
function flagValue(
  command: string,
  flag: Flag,
  raw: RawFlagValues[string],
  env: NodeJS.ProcessEnv,
) {
  if (flag.kind === 'boolean') return raw === true ? true : flag.default;
  if (flag.kind === 'list') {
    const items = raw === undefined ? [] : listOf(flag, raw);
    return items.length > 0 || flag.default ? items : undefined;
  }
  const text = typeof raw === 'string' ? raw : undefined;
  switch (flag.kind) {
    case 'text':
      if (flag.required && (text === undefined || text === '')) {
        throw new FlagError(`${command} needs --${flag.name}${placeholderOf(flag)}.`);
      }
      if (text !== undefined && text.trim() === '') {
        throw new FlagError(`--${flag.name} must not be empty.`);
      }
      return text ?? (flag.env ? env[flag.env] || undefined : undefined) ?? flag.default;
    case 'integer':
      return text === undefined ? flag.default : integerOf(flag, text);
    case 'choice':
      return text === undefined ? flag.default : choiceOf(flag, text);
  }
}

/**
 * Reads and checks the `parseArgs` values of a table, in the table's order.
 *
 * @param command - the command, named in the message of a missing required flag
 * @param table - the command's flags
 * @param raw - the values of `parseArgs` by flag name
 * @param env - the environment, for flags that fall back to a variable
 * @returns the options: every flag's value under its key; absent flags without a
 *   default are left out
 * @throws {@link FlagError} for the first flag whose value the table refuses
 */
export function readFlags<T extends FlagTable>(
  command: string,
  table: T,
  raw: RawFlagValues,
  env: NodeJS.ProcessEnv,
): FlagValues<T> {
  const options: Record<string, unknown> = {};
  for (const flag of table) {
    const value = flagValue(command, flag, raw[flag.name], env);
    if (value !== undefined) options[flag.key] = value;
  }
  return options as FlagValues<T>;
}

function placeholderOf(flag: Flag): string {
  if (flag.placeholder !== undefined) return ` ${flag.placeholder}`;
  return flag.kind === 'choice' ? ` ${flag.choices.join('|')}` : '';
}

/**
 * How the help writes a flag's default: the value the parser fills in, the one the
 * command applies later, or the environment variable read in its place.
 *
 * @param flag - the flag
 * @returns the text, e.g. `8787` or `$TOOL_SEARCH_GATEWAY_TOKEN`; undefined when the
 *   flag has no default worth writing (lists, booleans)
 * @throws nothing
 */
export function defaultText(flag: Flag): string | undefined {
  switch (flag.kind) {
    case 'text':
      return flag.env !== undefined ? `$${flag.env}` : flag.default;
    case 'integer': {
      const value = flag.default ?? flag.documentedDefault;
      return value === undefined ? undefined : String(value);
    }
    case 'choice':
      return flag.default;
    default:
      return undefined;
  }
}

/**
 * The synopsis of a table's flags: required ones bare, the others in brackets,
 * repeatable ones followed by `...`.
 *
 * @param table - the command's flags
 * @returns one word group a flag, e.g. `--config <file>`, `[--allow-origin O]...`
 * @throws nothing
 */
export function synopsisOf(table: FlagTable): string[] {
  return table.map((flag) => {
    const usage = `--${flag.name}${placeholderOf(flag)}`;
    if (flag.kind === 'text' && flag.required) return usage;
    return flag.kind === 'list' && flag.repeatable ? `[${usage}]...` : `[${usage}]`;
  });
}

/** A label wider than this goes on its own line, with the description below it. */
const MAX_LABEL_WIDTH = 22;

/**
 * The options section of a command's help: one entry a flag, its description
 * wrapped in a column aligned past the widest label.
 *
 * @param table - the command's flags
 * @param width - the widest line, in terminal columns
 * @returns the lines, each indented by two spaces
 * @throws nothing
 */
export function renderFlagHelp(table: FlagTable, width: number): string[] {
  const labels = table.map((flag) => `--${flag.name}${placeholderOf(flag)}`);
  const labelWidth = Math.max(
    0,
    ...labels.map(textWidth).filter((labelWidth) => labelWidth <= MAX_LABEL_WIDTH),
  );
  const indent = ' '.repeat(2 + labelWidth + 2);
  return table.flatMap((flag, index) => {
    const label = labels[index] ?? '';
    const description = flag.description.replaceAll('{default}', defaultText(flag) ?? '');
    const lines = wrapText(description, width - indent.length);
    const first =
      textWidth(label) <= labelWidth
        ? [`  ${label}${' '.repeat(labelWidth - textWidth(label) + 2)}${lines.shift() ?? ''}`]
        : [`  ${label}`];
    return [...first, ...lines.map((line) => `${indent}${line}`)];
  });
}
