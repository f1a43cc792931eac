import type { InlineConfig } from 'vitest/node';

/** The files of the integration tier. */
export declare const INTEGRATION_FILES: string[];
/** The setup file of the fast tier: any child process it starts fails its test. */
export declare const NO_SPAWN_SETUP: string;
/** What {@link tiered} takes beside the options. */
export interface TieredOptions {
  /**
   * Fast-tier files that assert on a fresh module graph (what an import loads, a
   * module's first-use state): they run in a project of their own, one graph per file.
   */
  readonly isolated?: readonly string[];
}
/**
 * Narrows a package's (or a project's) `test` options to the tier of `TEST_TIER`. The fast
 * tier shares one module graph per worker, but for the files named in `options.isolated`.
 */
export declare function tiered<T extends InlineConfig>(test: T, options?: TieredOptions): T;
