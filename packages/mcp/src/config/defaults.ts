/**
 * How long the gateway waits for a person's approval when the config sets no
 * `approval.timeoutMs`: two minutes. No answer in time means deny.
 */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** The default limits of upstream tool definitions (see `UpstreamLimits`). */
export const DEFAULT_UPSTREAM_LIMITS = Object.freeze({
  maxDescriptionChars: 10_000,
  maxSchemaBytes: 65_536,
  maxSchemaDepth: 64,
  maxToolBytes: 131_072,
});

/** The smallest `maxDescriptionChars`: room for text besides the cut marker. */
export const MIN_DESCRIPTION_CHARS = 200;

/** The default review file name, beside the gateway config. */
export const DEFAULT_REVIEW_FILE = 'tool-review.json';
