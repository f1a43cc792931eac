import { sanitizeTerminalText } from '@tool-search/hooks';
import { type AuditEntry, type GatewayStore, openGatewayStore } from '@tool-search/mcp';
import type { AuditOptions } from './command-flags.js';
import { ConfigFileError } from './errors.js';

/** How long one blocking read of `--follow` waits before it asks again. */
const FOLLOW_BLOCK_MS = 5_000;

// One JSON line an entry: a record as it was written, or what is wrong with it. C1
// controls, bidi controls and invisible characters, which JSON leaves raw, are escaped
// the JSON way, so that the line is still JSON and a terminal shows what was written.
const entryLine = (entry: AuditEntry): string =>
  `${sanitizeTerminalText(
    JSON.stringify(
      entry.record === undefined
        ? { id: entry.id, malformed: entry.malformed.reason, text: entry.malformed.text }
        : { id: entry.id, ...entry.record },
    ),
    { json: true },
  )}\n`;

/**
 * `audit`: prints the last `--count` records of the store's audit trail, one JSON line
 * each, oldest first; with `--follow`, then every new record as it is written, until
 * SIGINT or SIGTERM. While the store is down it says so on stderr and keeps trying. A
 * record that cannot be read prints as `{ id, malformed, text }` and the trail goes on;
 * control, bidi and invisible characters print escaped (`\u009b`, `\u202e`).
 *
 * @param options - the parsed flags
 * @returns the exit code: 0, or 1 when the store cannot be read (without `--follow`)
 * @throws {@link ConfigFileError} for a store that is not a Redis URL
 */
export async function runAudit(options: AuditOptions): Promise<number> {
  let store: GatewayStore;
  try {
    store = await openGatewayStore(options.store);
  } catch (error) {
    throw new ConfigFileError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  if (!store.shared) {
    throw new ConfigFileError(
      "audit reads the trail of a shared store: give --store redis://host:port[/db] (a 'memory' store lives inside its gateway process).",
    );
  }
  let stopped = false;
  const stop = () => {
    stopped = true;
    // Ends a blocking read at once.
    void store.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const print = (entry: AuditEntry) => process.stdout.write(entryLine(entry));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    let after: string | undefined;
    // The store connects in the background: give it a moment before the first read.
    for (let attempt = 0; ; attempt += 1) {
      try {
        const last = await store.readAudit({ count: options.count });
        for (const entry of last) print(entry);
        after = last.at(-1)?.id ?? '0-0';
        break;
      } catch (error) {
        if (attempt >= 20 || stopped) {
          process.stderr.write(
            `error: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          return 1;
        }
        await sleep(250);
      }
    }
    let down = false;
    while (options.follow && !stopped) {
      try {
        const next = await store.readAudit({ after, count: 100, blockMs: FOLLOW_BLOCK_MS });
        if (down) process.stderr.write('audit: the store is back.\n');
        down = false;
        for (const entry of next) print(entry);
        after = next.at(-1)?.id ?? after;
      } catch (error) {
        // Interrupted: the read was cut off on purpose.
        if (stopped) break;
        if (!down) {
          process.stderr.write(
            `audit: ${error instanceof Error ? error.message : String(error)} Retrying.\n`,
          );
        }
        down = true;
        await sleep(1_000);
      }
    }
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await store.close();
  }
}
