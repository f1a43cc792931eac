import { z } from 'zod/v4';
import { DEFAULT_REVIEW_FILE, DEFAULT_UPSTREAM_LIMITS, MIN_DESCRIPTION_CHARS } from './defaults.js';

// The schemas of the config's operational sections (limits, console, learning, review):
// beside schemas.ts, which holds the servers, profiles and policy and names the whole.

/** The schema of `limits`. */
export const limitsSchema = z.strictObject({
  /**
   * The longest description the model is shown, in characters. A longer one is cut,
   * and the cut is marked in the text (`[… N more characters cut by the gateway]`,
   * inside the limit). At least 200. @defaultValue 10000
   */
  maxDescriptionChars: z
    .number()
    .int()
    .min(MIN_DESCRIPTION_CHARS)
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxDescriptionChars),
  /**
   * The largest input schema, in bytes of compact UTF-8 JSON. A larger one cannot be
   * cut meaningfully: the tool is refused. @defaultValue 65536
   */
  maxSchemaBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxSchemaBytes),
  /**
   * The deepest nesting of objects and arrays in an input schema (the schema object
   * itself is level 1). A deeper one is refused. @defaultValue 64
   */
  maxSchemaDepth: z
    .number()
    .int()
    .positive()
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxSchemaDepth),
  /**
   * The largest whole definition after the description is cut (name, description,
   * schema, annotations), in bytes of compact UTF-8 JSON; catches huge annotations.
   * A larger one is refused. @defaultValue 131072
   */
  maxToolBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxToolBytes),
});

/**
 * How much of an upstream tool definition the gateway accepts and shows. The defaults
 * sit well above the largest of 397 real tools of 23 published MCP servers (longest
 * description 6,993 characters, largest input schema 12,030 bytes, deepest 21 levels),
 * so that they only ever touch pathological definitions.
 */
export interface UpstreamLimits extends z.output<typeof limitsSchema> {}

/** The schema of `console`. */
export const consoleSchema = z.strictObject({
  /** Serve the operator console under `/console` of the gateway's HTTP listener. @defaultValue false */
  enabled: z.boolean().optional().default(false),
  /**
   * Keep each call's arguments and the start of its result in the audit trail, for the
   * console's Activity page: rendered as an approval question renders arguments
   * (escaped, at most 2,000 characters, cuts marked) and 500 characters of result. Off by
   * default: arguments and results may hold secrets, and the trail is kept in the store.
   * @defaultValue false
   */
  callDetails: z.boolean().optional().default(false),
});

/** The `console` section of a gateway config. */
export interface ConsoleConfig extends z.output<typeof consoleSchema> {}

const learningLimit = z.number().finite().positive().optional();

/** The schema of `learning`: learning from use, with core's bounds (`DEFAULT_LEARNING_LIMITS`). */
export const learningSchema = z.strictObject({
  /**
   * Learn from use: a search followed by a successful call of a tool it returned lifts
   * that tool for the search's words, in the session's profile. @defaultValue false
   */
  enabled: z.boolean().optional().default(false),
  /** How many calls after a search a successful call of one of its hits still counts. @defaultValue 3 */
  window: z.number().int().positive().optional(),
  /** Terms kept per tool. @defaultValue 32 */
  maxTermsPerTool: learningLimit,
  /** Terms kept in all, over every profile. @defaultValue 200000 */
  maxEntries: learningLimit,
  /** What one client token gives one tool and term. @defaultValue 1 */
  tokenCap: learningLimit,
  /** What one client token gives one tool over all its terms. @defaultValue 8 */
  tokenToolCap: learningLimit,
  /** The half-life of a count, in milliseconds. @defaultValue 30 days */
  halfLifeMs: learningLimit,
  /** Counts decay in steps of this long, in milliseconds. @defaultValue 1 day */
  decayStepMs: learningLimit,
  /** Distinct terms one search adds. @defaultValue 16 */
  maxTermsPerQuery: learningLimit,
});

/** The `learning` section of a gateway config. */
export interface LearningConfig extends z.output<typeof learningSchema> {}

/** The schema of `review`. */
export const reviewSchema = z.strictObject({
  /** The review file (JSON, one line per tool). @defaultValue 'tool-review.json' */
  file: z.string().min(1, 'must not be empty').optional().default(DEFAULT_REVIEW_FILE),
  /** What is held back until accepted. @defaultValue 'none' */
  hold: z.enum(['none', 'changed', 'new-and-changed']).optional().default('none'),
});

/** The `review` section of a gateway config. */
export interface ToolReviewConfig extends z.output<typeof reviewSchema> {}

/**
 * Which upstream tools are held back (not listed, not callable) until their current
 * definition is accepted into the review file: `'none'` holds nothing, `'changed'`
 * holds tools whose definition differs from the accepted one, `'new-and-changed'` also
 * holds tools that were never accepted.
 */
export type ReviewHold = ToolReviewConfig['hold'];
