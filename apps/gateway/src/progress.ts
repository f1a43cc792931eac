import { sanitizeTerminalText } from '@tool-search/hooks';
import type { UpstreamProgressEvent } from '@tool-search/mcp';
import { createTerminalStyle, shouldColor } from './terminal-style.js';

/** Where progress goes: a writable stream such as `process.stderr`. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Options of {@link createProgressReporter}. */
export interface ProgressReporterOptions {
  /** Where to write. Never `process.stdout` when stdout is the MCP transport. @defaultValue process.stderr */
  stream?: ProgressStream;
  /** Write even when the stream is not a TTY (e.g. into a log file). @defaultValue false */
  always?: boolean;
  /** Colour the marks. @defaultValue {@link shouldColor}(stream): a TTY, `NO_COLOR` and `FORCE_COLOR` respected */
  color?: boolean;
}

/**
 * A progress display for an upstream pool: one line per server as it comes up
 * (`✓ filesystem  14 tools  452 ms`), fails (`✗ github  failed: ...`), goes down,
 * is retried after it was given up on, or comes back. Writes to stderr and only on a
 * TTY, so that nothing reaches stdout when stdout carries the MCP transport. Upstream
 * text (error messages with a server's stderr) goes through {@link sanitizeTerminalText}:
 * escape codes are shown, never acted on.
 *
 * @example
 * ```ts
 * const pool = createUpstreamPool(config, { onProgress: createProgressReporter() });
 * ```
 *
 * @param options.stream - where to write @defaultValue process.stderr
 * @param options.always - write when the stream is not a TTY too @defaultValue false
 * @param options.color - colour the marks @defaultValue {@link shouldColor}(stream)
 * @returns a listener for `onProgress`
 * @throws nothing
 */
export function createProgressReporter(
  options: ProgressReporterOptions = {},
): (event: UpstreamProgressEvent) => void {
  const stream = options.stream ?? process.stderr;
  const enabled = options.always === true || stream.isTTY === true;
  const style = createTerminalStyle(options.color ?? shouldColor(stream));
  return (event) => {
    if (!enabled) return;
    const { status } = event;
    const safe = (text: string) => sanitizeTerminalText(text, { multiline: false });
    const name = safe(event.server).padEnd(16);
    let line: string | undefined;
    switch (event.kind) {
      case 'ready': {
        const rejected = status.rejectedTools.length;
        const tools = `${status.toolCount} tool${status.toolCount === 1 ? '' : 's'}`.padStart(10);
        const time = `${status.connectMs ?? 0} ms`.padStart(8);
        const counts = [
          [rejected, 'rejected'],
          [status.heldTools?.length ?? 0, 'held for review'],
          [status.ignoredPins?.length ?? 0, 'self-pin ignored', 'self-pins ignored'],
          [status.cutTools?.length ?? 0, 'description cut', 'descriptions cut'],
        ] as const;
        const note = counts
          .filter(([count]) => count > 0)
          .map(([count, one, many]) =>
            style.yellow(`  ${count} ${count === 1 ? one : (many ?? one)}`),
          )
          .join('');
        line = `${style.green('✓')} ${name}${tools}${time}${note}`;
        break;
      }
      case 'failed':
        line = `${style.red('✗')} ${name}failed: ${safe(status.error ?? 'unknown error')}`;
        break;
      case 'disconnected':
        line = `${style.yellow('!')} ${name}disconnected: ${safe(status.error ?? '')}`;
        break;
      case 'reconnecting':
        line = `${style.yellow('↻')} ${name}reconnecting (attempt ${status.reconnectAttempts})`;
        break;
      case 'retrying':
        line = `${style.yellow('↻')} ${name}retrying (it was down)`;
        break;
      case 'tools_changed':
        line = `${style.cyan('~')} ${name}now ${status.toolCount} tools`;
        break;
      default:
        line = undefined;
    }
    if (line !== undefined) stream.write(`${line}\n`);
  };
}
