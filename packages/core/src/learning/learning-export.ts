// The JSON of an export: checked with a schema on import, so that a file from elsewhere
// cannot put anything but bounded terms and finite counts into a store.

import type { z } from 'zod/v4';
import { ToolSearchError } from '../errors.js';
import { lazySchema } from '../lazy-zod.js';

/** The longest term, tool name and profile an import accepts. */
const MAX_KEY_LENGTH = 256;

/**
 * The zod schema of a {@link LearningExport}: per profile, per tool, term → count
 * (zod is loaded when it is first used).
 */
export const learningExportSchema = /* @__PURE__ */ lazySchema((z) => {
  const key = z.string().min(1).max(MAX_KEY_LENGTH);
  const count = z.number().finite().positive();
  return z.object({
    format: z.literal('tool-search-learning'),
    version: z.literal(1),
    profiles: z.record(key, z.record(key, z.record(key, count))),
  });
});

/**
 * The JSON a learning store exports and imports: per profile, per tool, term → count.
 * Nothing else is in it (no query text, no arguments, no tokens).
 */
export type LearningExport = z.output<typeof learningExportSchema>;

/**
 * Checks an export before it is imported.
 *
 * @param data - the parsed JSON
 * @returns the export
 * @throws {@link ToolSearchError} `invalid_argument` when it is not one
 * @internal
 */
export function parseLearningExport(data: unknown): LearningExport {
  const parsed = learningExportSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
  throw new ToolSearchError(
    'invalid_argument',
    `Not a learning export${where}. Import what a learning store's export() gave.`,
  );
}
