import type { AuditEntry, StoredAuditRecord } from './types.js';

// Enough of a malformed record to recognise it, never a megabyte of it.
const SHOWN_CHARS = 200;

/**
 * Reads one stored audit record back. A record that is not JSON, or not a JSON object,
 * becomes an entry that says so (with the start of its text) instead of an error, so
 * that one bad record never hides the ones after it from `audit`, nor stalls
 * `audit --follow` on it.
 *
 * @param id - the entry's id in the trail
 * @param text - the stored text, absent when the entry has no record field
 * @returns the entry
 * @throws nothing
 */
export function readAuditEntry(id: string, text: string | undefined): AuditEntry {
  const shown = text === undefined ? '' : text.slice(0, SHOWN_CHARS);
  if (text === undefined) return { id, malformed: { reason: 'no record field', text: shown } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { id, malformed: { reason: `not JSON (${detail})`, text: shown } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { id, malformed: { reason: 'not an object', text: shown } };
  }
  return { id, record: value as StoredAuditRecord };
}
