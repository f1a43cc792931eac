import { existsSync } from 'node:fs';
import type { ToolDefinition } from '@tool-search/core';
import { sanitizeTerminalText } from '@tool-search/hooks';
import { openGatewayStore, type UpstreamPool } from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';
import {
  acceptToolReview,
  detectToolPoisoning,
  diffToolReview,
  readToolReview,
  reviewKey,
  writeToolReview,
} from '@tool-search/mcp/review';
import { formatInt, renderTable, type Style, truncate } from './format.js';

interface Output {
  write(text: string): unknown;
}

/** Upstream text on one line, with nothing in it that a terminal acts on. */
export const safeText = (text: string): string => sanitizeTerminalText(text, { multiline: false });

const EXCERPT_WIDTH = 72;

/**
 * The untrusted-definitions section of `inspect`: per server, the definitions that were
 * refused, cut, held back or that pinned themselves without trust, and the tools whose
 * text looks like instructions to the model (tool poisoning). Prints nothing when there
 * is nothing to say.
 *
 * @param pool - the started pool
 * @param out - where to print
 * @param style - the output's style
 * @returns nothing
 * @throws nothing
 */
export function printUntrustedDefinitions(pool: UpstreamPool, out: Output, style: Style): void {
  const rows: string[][] = [];
  const flagged: [string, ToolDefinition][] = [];
  for (const status of pool.status()) {
    const key = (name: string) => safeText(reviewKey(status.name, name));
    for (const tool of status.rejectedTools) {
      rows.push(['refused', `${key(tool.name)}: ${safeText(tool.error)}`]);
    }
    for (const tool of status.cutTools) {
      rows.push([
        'cut',
        `${key(tool.name)}: ${tool.field} ${formatInt(tool.fromChars)} → ${formatInt(tool.toChars)} characters`,
      ]);
    }
    for (const name of status.ignoredPins) {
      rows.push([
        'self-pin ignored',
        `${key(name)} (the config does not trust '${safeText(status.name)}': set trusted: true, or pin it under pins.tools)`,
      ]);
    }
    for (const tool of status.heldTools) {
      rows.push(['held', `${key(tool.name)}: ${safeText(tool.detail)}`]);
      if (tool.tool) flagged.push([status.name, tool.tool]);
    }
  }
  for (const tool of pool.tools()) {
    const info = pool.lookup(tool.name);
    if (info) flagged.push([info.server, { ...tool, name: info.upstreamName }]);
  }
  for (const [server, tool] of flagged) {
    for (const finding of detectToolPoisoning(tool)) {
      rows.push([
        'flagged',
        `${safeText(reviewKey(server, tool.name))}: ${finding.id} (${finding.label}) in ${finding.where}: ` +
          `“${truncate(safeText(finding.excerpt), EXCERPT_WIDTH)}”`,
      ]);
    }
  }
  if (rows.length === 0) return;
  out.write(
    `\n${style.bold('untrusted definitions')} (nothing is rewritten: review the flagged ones before you accept them)\n`,
  );
  out.write(
    `${renderTable(
      [{ header: 'what' }, { header: 'tool' }],
      rows.map(([what, detail]) => [
        what === 'flagged' || what === 'refused' ? style.yellow(what!) : what!,
        detail!,
      ]),
      { style },
    ).join('\n')}\n`,
  );
}

/**
 * The tool-review section of `inspect`: the new, changed and removed tools against the
 * review file; with `accept`, writes the current fingerprints into it.
 *
 * @param pool - the started pool
 * @param config - the config (its `review.file` and `review.hold`)
 * @param options.accept - write the current fingerprints
 * @param options.store - with `accept`, the replicas' Redis store to share them through
 * @param out - where to print
 * @param style - the output's style
 * @returns nothing, once printed (and written)
 * @throws the file system's error when the review file cannot be written
 */
export async function printToolReview(
  pool: UpstreamPool,
  config: GatewayConfig,
  options: { accept: boolean; store?: string },
  out: Output,
  style: Style,
): Promise<void> {
  const file = config.review.file;
  let accepted = new Map<string, string>();
  let problem: string | undefined;
  try {
    accepted = await readToolReview(file);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const current = pool.fingerprints();
  const listed = new Set(
    pool
      .status()
      .filter((status) => status.state === 'ready' || status.state === 'reconnecting')
      .map((status) => status.name),
  );
  const changes = diffToolReview(accepted, current, listed);
  out.write(
    `\n${style.bold('tool review')} ${file} (hold: ${config.review.hold})\n` +
      (problem ? `  ${style.yellow('warning')}: ${safeText(problem)}\n` : ''),
  );
  // Without a review file every tool is new: a count says it better than a list.
  const firstTime = problem === undefined && !existsSync(file);
  if (firstTime && !options.accept) {
    out.write(
      `  no review file yet: all ${formatInt(current.length)} tools are new; review them, then run inspect --accept to write it\n`,
    );
    return;
  }
  if (changes.length > 0) {
    out.write(
      `${renderTable(
        [{ header: 'change' }, { header: 'tool' }],
        changes.map((change) => [
          change.change === 'changed' ? style.yellow(change.change) : change.change,
          safeText(change.key),
        ]),
        { style },
      ).join('\n')}\n`,
    );
  }
  const count = (kind: string) => changes.filter((change) => change.change === kind).length;
  if (options.accept) {
    const next = acceptToolReview(accepted, current, listed);
    await writeToolReview(file, next);
    out.write(
      `  accepted ${formatInt(current.length)} tool definitions into ${file}; held tools are served once a running gateway reads it\n`,
    );
    if (options.store !== undefined) await shareToolReview(options.store, next, out);
  } else if (changes.length === 0) {
    out.write('  no new, changed or removed tools since the last accept\n');
  } else {
    out.write(
      `  ${count('new')} new, ${count('changed')} changed, ${count('removed')} removed; review them, then run inspect --accept to accept the current definitions\n`,
    );
  }
}

/** Writes accepted fingerprints into the replicas' store, waiting briefly for it to connect. */
async function shareToolReview(
  spec: string,
  accepted: ReadonlyMap<string, string>,
  out: Output,
): Promise<void> {
  const store = await openGatewayStore(spec);
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await store.putFingerprints(accepted);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    out.write(`  shared them through ${store.location}: every replica on it serves them\n`);
  } finally {
    await store.close();
  }
}
