import { inspect } from 'node:util';

/** Terminal styling that turns itself off where colour does not belong. */
export interface TerminalStyle {
  /** Whether escape codes are written. */
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/**
 * Whether to colour a stream, by the one rule of the repository: never with `NO_COLOR`
 * set to a non-empty value (https://no-color.org); otherwise never with `FORCE_COLOR`
 * set to `0` or `false`, always with any other `FORCE_COLOR` (Node's and chalk's
 * convention); otherwise only when the stream is a TTY.
 *
 * @param stream - the stream written to
 * @param env - the environment @defaultValue process.env
 * @returns true to colour
 * @throws nothing
 */
export function shouldColor(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true;
}

const STYLES = ['bold', 'dim', 'red', 'green', 'yellow', 'cyan', 'magenta'] as const;

/**
 * Creates a {@link TerminalStyle}. The codes are Node's own (`util.inspect.colors`, the
 * table behind `util.styleText`); `styleText` itself is not used because the packages
 * support Node 20.0, and from Node 22.13 it checks `process.stdout` rather than the
 * stream actually written to.
 *
 * @example
 * ```ts
 * const style = createTerminalStyle(shouldColor(process.stderr));
 * process.stderr.write(`${style.green('✓')} ready\n`);
 * ```
 *
 * @param enabled - whether to write escape codes, e.g. {@link shouldColor}(process.stdout)
 * @returns the style; with `enabled` false every method returns its text unchanged
 * @throws nothing
 */
export function createTerminalStyle(enabled: boolean): TerminalStyle {
  const style = { enabled } as { -readonly [K in keyof TerminalStyle]: TerminalStyle[K] };
  for (const name of STYLES) {
    const [open, close] = inspect.colors[name] ?? [0, 0];
    style[name] = (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  }
  return style;
}
