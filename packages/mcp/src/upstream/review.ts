import { createHash } from 'node:crypto';
import { unwatchFile, watchFile } from 'node:fs';
import type { ToolDefinition } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { DEFAULT_REVIEW_FILE } from '../config/defaults.js';
import type { ReviewHold, ToolReviewConfig } from '../config/section-schemas.js';
import { HELD_BY_OPERATOR, HELD_INVALID_ENTRY, readToolReview } from './review-file.js';

export type { ReviewHold, ToolReviewConfig };
export { DEFAULT_REVIEW_FILE };

/** The fingerprint of one upstream tool, keyed by `server/upstreamName`. */
export interface ToolFingerprint {
  /** The server's name in the config. */
  server: string;
  /** The tool's name on that server. */
  name: string;
  /** `sha256:<hex>` of the canonical JSON of its name, description, schema and annotations. */
  fingerprint: string;
}

/** A tool the pool holds back until it is accepted, as `status().heldTools` reports it. */
export interface HeldTool {
  /** The tool's name on its server. */
  name: string;
  /**
   * `new`: never accepted; `changed`: different from what was accepted; `held`: held by
   * an operator; `unreviewable`: the review (or this tool's entry in it) cannot be used.
   */
  reason: 'new' | 'changed' | 'held' | 'unreviewable';
  /** Why, in words, with what to do. */
  detail: string;
  /** The definition held back (after the limits), for review. */
  tool?: ToolDefinition;
}

/** How a tool's current definition compares with the review file. */
export interface ToolReviewChange {
  /** `server/upstreamName`. */
  key: string;
  /** `new`: not in the file; `changed`: another fingerprint; `removed`: in the file, no longer listed. */
  change: 'new' | 'changed' | 'removed';
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The fingerprint of a tool definition: `sha256:` and the hex SHA-256 of the canonical
 * JSON (keys sorted, no whitespace) of its name, description, input schema and
 * annotations. Anything else (toolset, pins) does not change it.
 *
 * @param tool - the definition as its server sent it (before any cut); its depth must
 * be bounded (the pool checks `limits.maxSchemaDepth` first)
 * @returns the fingerprint
 * @throws nothing for definitions within the depth limit
 */
export function fingerprintTool(
  tool: Pick<ToolDefinition, 'name' | 'description' | 'inputSchema' | 'annotations'>,
): string {
  const text = canonical({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  });
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The key of a tool in the review file. */
export const reviewKey = (server: string, name: string): string => `${server}/${name}`;

/**
 * Compares current fingerprints with accepted ones. A tool of a server that is not in
 * `listedServers` (down, disabled) is never reported removed.
 *
 * @param accepted - the review file's fingerprints
 * @param current - the tools listed now
 * @param listedServers - the servers whose tools were listed
 * @returns the new, changed and removed tools, by key
 * @throws nothing
 */
export function diffToolReview(
  accepted: ReadonlyMap<string, string>,
  current: readonly ToolFingerprint[],
  listedServers: ReadonlySet<string>,
): ToolReviewChange[] {
  const changes: ToolReviewChange[] = [];
  const seen = new Set<string>();
  for (const tool of current) {
    const key = reviewKey(tool.server, tool.name);
    seen.add(key);
    const before = accepted.get(key);
    if (before === undefined) changes.push({ key, change: 'new' });
    else if (before !== tool.fingerprint) changes.push({ key, change: 'changed' });
  }
  for (const key of accepted.keys()) {
    const server = key.slice(0, key.lastIndexOf('/'));
    if (!seen.has(key) && listedServers.has(server)) changes.push({ key, change: 'removed' });
  }
  return changes.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/**
 * The accepted fingerprints after accepting the current ones: the current tools of the
 * listed servers replace theirs; the entries of other servers (down, disabled) stay.
 *
 * @param accepted - the review file's fingerprints
 * @param current - the tools listed now
 * @param listedServers - the servers whose tools were listed
 * @returns the new content of the review file
 * @throws nothing
 */
export function acceptToolReview(
  accepted: ReadonlyMap<string, string>,
  current: readonly ToolFingerprint[],
  listedServers: ReadonlySet<string>,
): Map<string, string> {
  const next = new Map(
    [...accepted].filter(([key]) => !listedServers.has(key.slice(0, key.lastIndexOf('/')))),
  );
  for (const tool of current) next.set(reviewKey(tool.server, tool.name), tool.fingerprint);
  return next;
}

/** The pool's side of the review: which tools to hold back, kept current with the file. */
export interface ToolReviewGate {
  /** Reads the review file (again). Never throws: an unreadable file holds every tool. */
  load(): Promise<void>;
  /** Why a tool is held back, or undefined when it may be served. */
  held(server: string, name: string, fingerprint: string): HeldTool | undefined;
  /** Calls `onChange` after the file changed and was read again. */
  watch(onChange: () => void): void;
  /** Stops watching. */
  close(): void;
}

/** How often the review file is checked for changes (by `inspect --accept`). */
const REVIEW_POLL_MS = 500;

/**
 * Where several gateway replicas share the accepted fingerprints (a shared store): the
 * gate reads them from it instead of the file, and seeds it from the file once.
 */
export interface SharedToolReview {
  /** The accepted fingerprints; empty when none were ever shared. */
  read(): Promise<Map<string, string>>;
  /** Replaces the accepted fingerprints. */
  write(accepted: ReadonlyMap<string, string>): Promise<void>;
}

/** How often a gate on a shared store looks for fingerprints accepted elsewhere. */
const SHARED_REVIEW_POLL_MS = 1_000;

/**
 * Creates the review gate of a pool. With `hold: 'none'` (or no config) nothing is held
 * and the file is never read. With `shared`, the accepted fingerprints come from the
 * shared store (seeded from the file when it holds none), so that every replica holds
 * back the same tools; a store that cannot be read holds every tool (fails closed).
 *
 * @param config - the `review` section
 * @param shared - the replicas' shared fingerprints, when there are replicas
 * @returns the gate
 * @throws nothing
 */
export function createToolReviewGate(
  config: ToolReviewConfig | undefined,
  shared?: SharedToolReview,
): ToolReviewGate {
  const hold = config?.hold ?? 'none';
  let accepted: Map<string, string> | undefined = new Map();
  let problem = '';
  let watching: (() => void) | undefined;
  let sharedKey = '';
  const load = async () => {
    if (config === undefined || hold === 'none') return;
    try {
      if (shared === undefined) {
        accepted = await readToolReview(config.file);
        return;
      }
      let fromStore = await shared.read();
      if (fromStore.size === 0) {
        // The first replica brings the file's fingerprints into the store.
        fromStore = await readToolReview(config.file);
        if (fromStore.size > 0) await shared.write(fromStore);
      }
      accepted = fromStore;
      sharedKey = JSON.stringify([...fromStore].sort());
    } catch (error) {
      accepted = undefined;
      problem = describeError(error);
    }
  };
  return {
    load,
    held(server, name, fingerprint) {
      if (config === undefined || hold === 'none') return undefined;
      if (accepted === undefined) {
        return {
          name,
          reason: 'unreviewable',
          detail: `held: the review file cannot be used (${problem})`,
        };
      }
      const key = reviewKey(server, name);
      const before = accepted.get(key);
      if (before === HELD_BY_OPERATOR) {
        return {
          name,
          reason: 'held',
          detail: `held: an operator held '${key}'; accept it (console or inspect --accept) to serve it`,
        };
      }
      if (before === HELD_INVALID_ENTRY) {
        return {
          name,
          reason: 'unreviewable',
          detail: `held: the entry of '${key}' in the review is not a fingerprint (only this tool is held); review it and accept it again (console or inspect --accept)`,
        };
      }
      if (before === undefined) {
        return hold === 'new-and-changed'
          ? {
              name,
              reason: 'new',
              detail: `held: new, never accepted into ${config.file}; run inspect --accept after reviewing it`,
            }
          : undefined;
      }
      if (before === fingerprint) return undefined;
      return {
        name,
        reason: 'changed',
        detail: `held: its definition changed since it was accepted into ${config.file}; run inspect to see it and inspect --accept to serve it`,
      };
    },
    watch(onChange) {
      if (config === undefined || hold === 'none' || watching) return;
      if (shared !== undefined) {
        const timer = setInterval(() => {
          const before = sharedKey;
          const wasHeld = accepted === undefined;
          void load().then(() => {
            if (sharedKey !== before || wasHeld !== (accepted === undefined)) onChange();
          });
        }, SHARED_REVIEW_POLL_MS);
        timer.unref();
        watching = () => clearInterval(timer);
        return;
      }
      const file = config.file;
      const listener = () => {
        void load().then(onChange);
      };
      watchFile(file, { interval: REVIEW_POLL_MS, persistent: false }, listener);
      watching = () => unwatchFile(file, listener);
    },
    close() {
      watching?.();
      watching = undefined;
    },
  };
}
