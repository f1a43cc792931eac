import { isRecord } from '@tool-search/core/internal';
import { renderApprovalQuestion } from './approval-question.js';

/** The most rendered characters of arguments or of a result a span records. */
export const SPAN_CONTENT_CHARS = 4_000;

// A field whose name says it holds a credential: its value is never recorded.
const SECRET_FIELD =
  /pass(word|phrase)?|secret|token|api[-_]?key|auth(orization)?|cookie|credential|private[-_]?key|session[-_]?id|^key$/i;
// A value that looks like a credential whatever its field: a bearer token, a JWT, a PEM block.
const SECRET_VALUE =
  /^(bearer|basic)\s+\S+|^eyJ[\w-]+\.[\w-]+\.[\w-]*$|-----BEGIN [A-Z ]*PRIVATE KEY-----|^(sk|pk|ghp|gho|ghs|xox[abp])[-_][\w-]{8,}/i;

const REDACTED = '[redacted]';
const MAX_DEPTH = 32;

/**
 * A copy of a value with every credential replaced by `[redacted]`: the values of fields
 * named like one (password, token, api_key, authorization, cookie, ...) and strings that
 * look like one (bearer tokens, JWTs, PEM private keys, well-known key prefixes).
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value.trim()) ? REDACTED : value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((entry) => redactSecrets(entry, depth + 1));
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    copy[key] = SECRET_FIELD.test(key) ? REDACTED : redactSecrets(entry, depth + 1);
  }
  return copy;
}

/**
 * What a span records of a call's arguments or result when the operator opted in: the
 * value with its secrets redacted, rendered by the approval question's rules (escaped
 * controls and invisible characters, runs by their length, long strings cut in place).
 */
export function spanContent(value: unknown): string {
  const redacted = redactSecrets(value);
  const args = isRecord(redacted) ? redacted : { value: redacted };
  return renderApprovalQuestion(
    { name: 'content', arguments: args },
    { maxArgumentChars: SPAN_CONTENT_CHARS, oversize: 'ask' },
  ).arguments;
}
