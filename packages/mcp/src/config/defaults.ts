/**
 * How long the gateway waits for a person's approval when the config sets no
 * `approval.timeoutMs`: two minutes. No answer in time means deny.
 */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;
