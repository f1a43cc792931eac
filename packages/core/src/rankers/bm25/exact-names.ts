// Exact tool names in queries: how a name is normalised and hashed (the hashes are
// taken when a tool is analysed), which tools a query names exactly, and which words of
// a query look like identifiers. The default preset ranks such tools first.

import { MAX_QUERY_SCAN } from './tuning.js';

/**
 * A name in the form queries are compared in: lowercased, runs of spaces and `_ . - : /`
 * as one `_`, none at either end.
 *
 * @internal
 */
export function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_.\-:/]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * FNV-1a over a string's UTF-16 code units, never 0 (0 stands for no name).
 *
 * @internal
 */
export function nameHash(name: string): number {
  if (name === '') return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0 || 1;
}

/** Bits of a name filter per name hash it is made for (about one hash in nine passes falsely). */
const FILTER_BITS_PER_HASH = 8;

/**
 * A filter of name hashes for `slots` slots (two hashes a slot): a bit per hash value
 * modulo its size, so that a query naming no tool skips the scan of every slot. Bits
 * are only ever set: indexes patched from one another share it, an older one seeing
 * more bits than its own slots set, which only costs it a scan.
 *
 * @internal
 */
export function createNameFilter(slots: number): Uint32Array {
  let words = 32;
  while (words * 32 < slots * 2 * FILTER_BITS_PER_HASH) words *= 2;
  return new Uint32Array(words);
}

/**
 * Sets a name hash's bit in a filter (0, no name, sets none).
 *
 * @internal
 */
export function addToNameFilter(filter: Uint32Array, hash: number): void {
  if (hash === 0) return;
  const bit = hash & (filter.length * 32 - 1);
  filter[bit >>> 5]! |= 1 << (bit & 31);
}

/**
 * The names of an index's tools by slot: each slot's name hash and bare-name hash (0:
 * none), two words a slot, and which slots are alive at which catalog position.
 *
 * @internal
 */
export interface ToolNames {
  /** The tools, in catalog order (their names are read only where a hash matches). */
  readonly tools: readonly { readonly name: string }[];
  readonly slotHashes: Uint32Array;
  /** Every slot's hashes, set in a {@link createNameFilter} filter. */
  readonly nameFilter: Uint32Array;
  readonly alive: Uint8Array;
  readonly position: Uint32Array;
}

/**
 * The positions of the tools a query names exactly (any case or separators; the bare
 * name of `server__tool` too), in catalog order: a scan of the slots' name hashes, each
 * hit checked against the name itself.
 *
 * @internal
 */
export function exactMatches(index: ToolNames, query: string): number[] {
  const wanted = normalizeName(query);
  const hash = nameHash(wanted);
  if (hash === 0) return [];
  const { slotHashes, alive, position, tools, nameFilter } = index;
  const bit = hash & (nameFilter.length * 32 - 1);
  if ((nameFilter[bit >>> 5]! & (1 << (bit & 31))) === 0) return [];
  const slots = alive.length;
  const found: number[] = [];
  for (let slot = 0; slot < slots; slot++) {
    if (slotHashes[slot * 2] !== hash && slotHashes[slot * 2 + 1] !== hash) continue;
    if (alive[slot] === 0) continue;
    const at = position[slot]!;
    const name = tools[at]!.name;
    const bare = name.lastIndexOf('__');
    if (
      normalizeName(name) === wanted ||
      (bare >= 0 && normalizeName(name.slice(bare + 2)) === wanted)
    ) {
      found.push(at);
    }
  }
  return found.length > 1 ? found.sort((x, y) => x - y) : found;
}

/** How many identifier-like words of a query are looked up as tool names. */
const MAX_QUOTED_IDENTIFIERS = 8;
const IDENTIFIER_WORD = /[A-Za-z0-9][\w.:/-]{1,126}[A-Za-z0-9]/g;
const IDENTIFIER_SHAPE = /[_.:/-]|[a-z][A-Z]/;

/**
 * Whether a text has what {@link IDENTIFIER_SHAPE} looks for anywhere (`_ . : / -`, or a
 * lowercase letter before a capital): most queries do not, and skip the patterns (a
 * pattern's compiled code is dropped by a full garbage collection, so each first use
 * after one compiles it again).
 */
function mayHoldIdentifier(text: string): boolean {
  let lower = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 95 || code === 46 || code === 58 || code === 47 || code === 45) return true;
    if (lower && code >= 65 && code <= 90) return true;
    lower = code >= 97 && code <= 122;
  }
  return false;
}

/**
 * The words of a query shaped like identifiers (`sort_list`, `github.create_issue`,
 * `getWeather`), at most {@link MAX_QUOTED_IDENTIFIERS}, from its first 4,096
 * characters; URLs and paths are left out.
 *
 * @internal
 */
export function quotedIdentifiers(query: string): string[] {
  const found: string[] = [];
  const text = query.length > MAX_QUERY_SCAN ? query.slice(0, MAX_QUERY_SCAN) : query;
  if (!mayHoldIdentifier(text)) return found;
  for (const match of text.matchAll(IDENTIFIER_WORD)) {
    const word = match[0];
    if (!IDENTIFIER_SHAPE.test(word) || word.includes('//') || word.startsWith('/')) continue;
    found.push(word);
    if (found.length === MAX_QUOTED_IDENTIFIERS) break;
  }
  return found;
}
