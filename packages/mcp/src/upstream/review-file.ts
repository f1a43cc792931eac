import { readFile, rename, writeFile } from 'node:fs/promises';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';

/**
 * The value the review keeps for a tool an operator held (the console's Hold): no
 * definition has it as its fingerprint, so the tool is held until it is accepted again.
 */
export const HELD_BY_OPERATOR = 'held:by-operator';

/**
 * The value {@link readToolReview} gives an entry of the review file that is neither a
 * fingerprint nor {@link HELD_BY_OPERATOR} (a hand edit, a foreign writer): that tool
 * alone is held, and accepting it again (console or `inspect --accept`) mends the entry.
 */
export const HELD_INVALID_ENTRY = 'held:invalid-entry';

const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;
let writes = 0;

/**
 * Whether a value of the review is one the reader keeps as it is: a fingerprint or one
 * of the two markers that hold a tool.
 *
 * @param value - an entry's value
 * @returns true for `sha256:<64 hex>`, {@link HELD_BY_OPERATOR} and {@link HELD_INVALID_ENTRY}
 * @throws nothing
 */
export function isToolReviewValue(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    (FINGERPRINT.test(value) || value === HELD_BY_OPERATOR || value === HELD_INVALID_ENTRY)
  );
}

/**
 * Reads a review file: the accepted fingerprints by `server/upstreamName`. An entry that
 * is not a fingerprint (nor an operator's hold) holds that tool alone: it is read as
 * {@link HELD_INVALID_ENTRY}, never as a reason to hold every tool.
 *
 * @param file - the file's path
 * @returns the accepted fingerprints and markers (empty when the file does not exist)
 * @throws {@link ToolSearchError} `invalid_config` when the file cannot be read, is not
 * JSON or has no `tools` object (then nothing in it can be trusted)
 */
export async function readToolReview(file: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new ToolSearchError(
      'invalid_config',
      `Cannot read the tool review file ${file}: ${describeError(error)}.`,
      { cause: error, data: { path: file } },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ToolSearchError(
      'invalid_config',
      `The tool review file ${file} is not valid JSON: ${describeError(error)}. Run inspect --accept to write it anew.`,
      { cause: error, data: { path: file } },
    );
  }
  const tools = (raw as { tools?: unknown } | null)?.tools;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    throw new ToolSearchError(
      'invalid_config',
      `The tool review file ${file} has no "tools" object. Run inspect --accept to write it anew.`,
      { data: { path: file, field: 'tools' } },
    );
  }
  const accepted = new Map<string, string>();
  for (const [key, value] of Object.entries(tools)) {
    accepted.set(key, isToolReviewValue(value) ? value : HELD_INVALID_ENTRY);
  }
  return accepted;
}

/**
 * Writes a review file: `{ "version": 1, "tools": { "<server>/<name>": "sha256:…" } }`,
 * keys sorted, one line per tool, so that it reads well in a diff. Written to a
 * temporary file and renamed, so that a reader never sees half a file. A value that
 * {@link readToolReview} would not keep is written as {@link HELD_INVALID_ENTRY}, so that
 * what is written is always what is read back.
 *
 * @param file - the file's path
 * @param accepted - the fingerprints (or markers) by `server/upstreamName`
 * @returns nothing, once written
 * @throws the file system's error when the file cannot be written
 */
export async function writeToolReview(
  file: string,
  accepted: ReadonlyMap<string, string>,
): Promise<void> {
  const tools = Object.fromEntries(
    [...accepted.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, value]) => [key, isToolReviewValue(value) ? value : HELD_INVALID_ENTRY]),
  );
  // One temporary name a write: two writes of one process never share one.
  writes += 1;
  const temporary = `${file}.${process.pid}.${writes}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ version: 1, tools }, null, 2)}\n`);
  await rename(temporary, file);
}
