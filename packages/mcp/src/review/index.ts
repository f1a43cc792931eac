/**
 * The review of upstream tools: fingerprints of their definitions, the review file
 * that records the accepted ones, the gate that holds back changed or new tools until
 * they are accepted, and the screen for prompt injection in their texts. What the
 * gateway's `inspect --review` and `--accept` run on.
 *
 * @example
 * ```ts
 * import { diffToolReview, readToolReview } from '@tool-search/mcp/review';
 *
 * const accepted = await readToolReview('tool-review.json');
 * // current: the ToolFingerprint[] listed now; listed: the servers that answered
 * const changes = diffToolReview(accepted, current, listed);
 * ```
 *
 * @packageDocumentation
 */
export type { PoisoningFinding, PoisoningPattern } from '../upstream/poisoning.js';
export { detectToolPoisoning, TOOL_POISONING_PATTERNS } from '../upstream/poisoning.js';
export type {
  HeldTool,
  ReviewHold,
  SharedToolReview,
  ToolFingerprint,
  ToolReviewChange,
  ToolReviewConfig,
  ToolReviewGate,
} from '../upstream/review.js';
export {
  acceptToolReview,
  createToolReviewGate,
  DEFAULT_REVIEW_FILE,
  diffToolReview,
  fingerprintTool,
  reviewKey,
} from '../upstream/review.js';
export {
  HELD_BY_OPERATOR,
  HELD_INVALID_ENTRY,
  readToolReview,
  writeToolReview,
} from '../upstream/review-file.js';
