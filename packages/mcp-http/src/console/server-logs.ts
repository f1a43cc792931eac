import { sanitizeTerminalText } from '@tool-search/hooks';
import type { UpstreamProgressEvent } from '@tool-search/mcp';

/** One line of a server's recent output: its stderr, or what the pool saw of it. */
export interface ServerLogLine {
  /** ISO 8601, with the time zone (`Z`). */
  time: string;
  /** `stderr`: the process wrote it; `event`: the pool's lifecycle (connect, crash, restart). */
  source: 'stderr' | 'event';
  /** The text: terminal escapes and controls shown escaped, secrets replaced by `[redacted]`. */
  text: string;
}

/** The recent stderr and lifecycle events of every upstream server, bounded. */
export interface ServerLogs {
  /** Takes a chunk a server wrote to stderr (split into lines). */
  stderr(server: string, text: string): void;
  /** Takes a lifecycle event of the pool. */
  event(event: UpstreamProgressEvent): void;
  /** Notes what an operator did to a server (a restart, a reload). */
  note(server: string, text: string): void;
  /** The lines kept for a server, oldest first. */
  lines(server: string): ServerLogLine[];
  /** Forgets a server (removed by a reload). */
  forget(server: string): void;
}

/** Lines kept a server. */
export const SERVER_LOG_LINES = 200;
/** The longest line kept, in characters (longer ones are cut and marked). */
const MAX_LINE_CHARS = 2_000;
/** Words that a secret follows: `token=…`, `Authorization: Bearer …`, `"apiKey": "…"`. */
const SECRET_PATTERN =
  /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{6,}|\b((?:api[_-]?key|token|secret|password|passwd|authorization|cookie)["']?\s*[:=]\s*["']?)(?:(?:bearer|basic)\s+)?[^\s"',;&]{4,}/gi;

/**
 * Creates the bounded ring of recent lines of each server: at most
 * {@link SERVER_LOG_LINES} a server, each at most 2,000 characters, sanitized as it is
 * taken (terminal escapes and controls shown escaped; the given secrets and anything
 * after `token=`, `Bearer ` and their kin replaced by `[redacted]`). Markup is kept as
 * text: the console shows it as text, never as HTML.
 *
 * @param secrets - values never to show (tokens, passwords, header values of the config)
 * @returns the logs
 * @throws nothing
 */
export function createServerLogs(secrets: () => readonly string[] = () => []): ServerLogs {
  const byServer = new Map<string, ServerLogLine[]>();
  const clean = (raw: string): string => {
    let text = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)} […cut]` : raw;
    for (const secret of secrets()) {
      if (secret.length >= 6) text = text.split(secret).join('[redacted]');
    }
    text = text.replace(
      SECRET_PATTERN,
      (_match, scheme: string | undefined, key: string | undefined) =>
        scheme !== undefined ? `${scheme} [redacted]` : `${key ?? ''}[redacted]`,
    );
    return sanitizeTerminalText(text, { multiline: false });
  };
  const push = (server: string, source: ServerLogLine['source'], raw: string) => {
    let lines = byServer.get(server);
    if (lines === undefined) {
      lines = [];
      byServer.set(server, lines);
    }
    lines.push({ time: new Date().toISOString(), source, text: clean(raw) });
    if (lines.length > SERVER_LOG_LINES) lines.splice(0, lines.length - SERVER_LOG_LINES);
  };
  return {
    stderr(server, text) {
      for (const line of text.split(/\r?\n/)) if (line.trim() !== '') push(server, 'stderr', line);
    },
    event({ kind, server, status }) {
      const error = status.error === undefined ? '' : `: ${status.error}`;
      push(server, 'event', `${kind} (${status.state})${kind === 'ready' ? '' : error}`);
    },
    note: (server, text) => push(server, 'event', text),
    lines: (server) => [...(byServer.get(server) ?? [])],
    forget: (server) => void byServer.delete(server),
  };
}
